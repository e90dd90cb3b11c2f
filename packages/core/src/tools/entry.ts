// The `@lousho/core/tools` entry: defining tools, the registry, tool errors and the built-in tools.
export * from './index.js';
export * from './builtin/index.js';
