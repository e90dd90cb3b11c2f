// Guardrails: checks on a run's input, its tool calls and its final reply.
export type {
  Guardrail,
  GuardrailContext,
  GuardrailResult,
  GuardrailVerdict,
  GuardrailStage,
  GuardrailInfo,
  GuardrailBlock,
  GuardrailToolCall,
  AgentGuardrails,
  InputGuardrailContext,
  OutputGuardrailContext,
  ToolGuardrailContext,
} from './types.js';
export { runGuardrails } from './run-guardrails.js';
export {
  createCommandGuardrail,
  MAX_COMMAND_LINE_LENGTH,
  type CommandGuardrailOptions,
  type CommandRefusal,
  type CommandRefusalCode,
  type CommandRule,
  type GuardedCommand,
} from './command/command-guardrail.js';
export { parseShell, ShellSyntaxError } from './command/shell-parser.js';
export type { ShellScript, ShellCommand, SimpleCommand, CompoundCommand, ShellWord, WordPart, Redirect } from './command/shell-ast.js';
export { createDiffSizeGuardrail, changedLineCount, type DiffSizeGuardrailOptions } from './diff-size.js';
export { secretScanGuardrail, scanSecrets, shannonEntropy, type SecretFinding } from './secret-scan.js';
