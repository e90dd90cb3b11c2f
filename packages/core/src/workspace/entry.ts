// The `@lousho/core/workspace` entry: workspace tools and providers, sandboxes and guardrails.
export * from './index.js';
export * from '../guardrails/index.js';
