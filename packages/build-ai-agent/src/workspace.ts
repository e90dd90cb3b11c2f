// `@lousho/build-ai-agent/workspace`: workspace tools and providers (NodeWorkspace, MemoryWorkspace, SandboxShell), sandboxes and guardrails.
export * from '@lousho/workspace';
// The guardrails core runs (the command guardrail is @lousho/workspace's).
export {
  runGuardrails,
  createDiffSizeGuardrail,
  changedLineCount,
  secretScanGuardrail,
  scanSecrets,
  shannonEntropy,
  type DiffSizeGuardrailOptions,
  type SecretFinding,
  type Guardrail,
  type GuardrailContext,
  type GuardrailResult,
  type GuardrailVerdict,
  type GuardrailStage,
  type GuardrailInfo,
  type GuardrailBlock,
  type GuardrailToolCall,
  type AgentGuardrails,
  type InputGuardrailContext,
  type OutputGuardrailContext,
  type ToolGuardrailContext,
} from '@lousho/core';
