// The `@lousho/core/tools` entry: defining tools, the registry, tool errors and `askQuestionTool` (the other
// built-in tools are in @lousho/tools).
export * from './index.js';
export * from './builtin/index.js';
