// `@lousho/svelte` (also `@lousho/build-ai-agent/svelte`): the Svelte binding of the agent client.
export { loushoAgent } from './lousho-agent.js';
export type {
  LoushoAgentSource,
  LoushoInProcessSource,
  LoushoHttpSource,
  LoushoAgentOptions,
  LoushoAgentStore,
  LoushoAgentValue,
  ToolPartFor,
  ToolsOf,
} from './types.js';
