export { agentSpecSchema, SPEC_BUILTIN_TOOLS } from './schema.js';
export type { AgentSpec } from '@lousho/protocol';
export { checkAgentSpec, parseAgentSpec, SpecError } from './parse-spec.js';
export { loadSpec } from './load-spec.js';
export { specToAgent, type OutputValidator, type SpecBuiltinTools, type SpecToAgentOptions } from './spec-to-agent.js';
