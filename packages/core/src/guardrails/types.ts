// Moved to contracts/guardrails.ts (issue 46: contracts at the bottom); re-exported here until every importer takes it from there.
export type { GuardrailStage, InputGuardrailContext, OutputGuardrailContext, GuardrailToolCall, ToolGuardrailContext, GuardrailContext, GuardrailVerdict, GuardrailResult, Guardrail, AgentGuardrails, GuardrailInfo, GuardrailBlock } from '../contracts/guardrails.js';
