// `@lousho/vue` (also `@lousho/build-ai-agent/vue`): the Vue binding of the agent client.
export { useLoushoAgent } from './use-lousho-agent.js';
export type {
  LoushoAgentSource,
  LoushoInProcessSource,
  LoushoHttpSource,
  ReadonlyShallowRef,
  UseLoushoAgentOptions,
  UseLoushoAgentResult,
  ToolPartFor,
  ToolsOf,
} from './types.js';
