// Guardrails: checks on a run's input, its tool calls and its final reply.
export type { Guardrail, GuardrailContext, GuardrailResult, GuardrailVerdict, GuardrailStage, GuardrailInfo, GuardrailBlock, GuardrailToolCall, AgentGuardrails, InputGuardrailContext, OutputGuardrailContext, ToolGuardrailContext } from '@lousho/protocol';
export { runGuardrails } from './run-guardrails.js';
export { createDiffSizeGuardrail, changedLineCount, type DiffSizeGuardrailOptions } from './diff-size.js';
export { secretScanGuardrail, scanSecrets, shannonEntropy, type SecretFinding } from './secret-scan.js';
