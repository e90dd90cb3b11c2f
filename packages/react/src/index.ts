// `@lousho/react` (also `@lousho/build-ai-agent/react`): the React binding of the agent client.
export { useLoushoAgent } from './use-lousho-agent.js';
export type {
  LoushoAgentSource,
  LoushoInProcessSource,
  LoushoHttpSource,
  UseLoushoAgentOptions,
  UseLoushoAgentResult,
  ToolPartFor,
  ToolsOf,
} from './types.js';
