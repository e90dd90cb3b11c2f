// Public API of the tool definition layer. `SDKError`, `ERROR_CODES` and `serializeError` live in
// ../errors.ts and are exported from the root entry on their own.
export type * from '@lousho/protocol';
export type { ToolSchema, ToolExecutionContext, ToolArtifact, ToolErrorKind, ToolValidationIssue, ToolErrorResult } from '@lousho/protocol';
export type { SandboxAdapter } from '@lousho/protocol';
export { defineTool, type DefineToolOptions, type ResultOf, type SchemaOutput } from './define-tool.js';
export {
  isToolSchema,
  toolSchemaKind,
  validateToolSchema,
  toolSchemaToJSONSchema,
  formatIssuePath,
  type ToolSchemaKind,
  type ToolSchemaValidation,
} from './schema.js';
export { TOOL_NAME_PATTERN, isValidToolName, suggestToolName } from './tool-name.js';
export { ToolRegistry, type NamedToolDescriptor, type ToolCollection } from './registry.js';
export { resolveToolDescriptor, argumentSchemaOf, type ResolvedTool } from './resolve-tool.js';
export {
  toolErrorKind,
  toolErrorResult,
  isToolErrorKind,
  isPropagatingToolError,
  summarizeIssues,
  DEFAULT_TOOL_ERROR_NAMES,
  MAX_TOOL_ERROR_MESSAGE_LENGTH,
  ToolCallError,
  ToolArgumentsValidationError,
  ToolOutputValidationError,
  PropagatingToolError,
  ToolNotFoundError,
  ToolRejectedError,
  ToolNotRunError,
  ToolDeniedError,
  SandboxRequiredError,
  McpToolError,
  ToolCancelledError,
  type ToolErrorResultOptions,
} from './errors.js';
export { parseToolArguments, validateToolArguments, type ParsedToolArguments, type ToolArgumentsValidation } from './validate-args.js';
export { validateToolOutput, type ToolOutputValidation } from './validate-output.js';
export { withArtifacts, splitArtifacts, isResultWithArtifacts } from './artifacts.js';
export { buildToolRunContext, type ToolRunContextOptions } from './run-context.js';
