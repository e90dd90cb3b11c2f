import { describeThrown, ERROR_CODES, SDKError, stripStackFrames, truncateMessage, type ErrorCode } from '@lousho/protocol';
import type { ToolErrorKind, ToolErrorResult, ToolValidationIssue } from '@lousho/protocol';

/*
 * Every way a tool call can fail ends as one `ToolErrorResult`. The classes below are what the SDK
 * (and tool authors) throw; `toolErrorResult()` turns any of them, or any other thrown value, into
 * the result the model sees: name, tool, message (no stack, capped), kind, and the kind's extras.
 */

/**
 * The property a thrown error can carry to choose its result kind:
 * `throw Object.assign(new Error('no access'), { [toolErrorKind]: 'denied' })`.
 * The value is the property's name, `'toolErrorKind'`.
 */
export const toolErrorKind = 'toolErrorKind';

/** Longest `message` (and `note` / `reason`) a tool error result carries, the `... (truncated)` marker included. */
export const MAX_TOOL_ERROR_MESSAGE_LENGTH = 2000;

/** The `error` name used when a failure is not a thrown error of its own (e.g. a string). */
export const DEFAULT_TOOL_ERROR_NAMES: Readonly<Record<ToolErrorKind, string>> = Object.freeze({
  execution: 'Error',
  validation: 'ToolArgumentsValidationError',
  'not-found': 'ToolNotFoundError',
  rejected: 'ToolRejectedError',
  'not-run': 'ToolNotRunError',
  mcp: 'McpToolError',
  sandbox: 'SandboxRequiredError',
  denied: 'ToolDeniedError',
  cancelled: 'ToolCancelledError',
  'output-validation': 'ToolOutputValidationError',
});

const TOOL_ERROR_KINDS = new Set<string>(Object.keys(DEFAULT_TOOL_ERROR_NAMES));

/** True for a string that is one of the `ToolErrorKind`s. */
export function isToolErrorKind(value: unknown): value is ToolErrorKind {
  return typeof value === 'string' && TOOL_ERROR_KINDS.has(value);
}

/** Base of the SDK's tool failures: each knows its tool and its result kind. */
export abstract class ToolCallError extends SDKError {
  readonly toolName: string;
  abstract readonly [toolErrorKind]: ToolErrorKind;

  constructor(code: ErrorCode, toolName: string, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.toolName = toolName;
  }
}

/** Summary used in validation messages: `2 issues (to: Required; count: Expected number, received string)`. */
export function summarizeIssues(issues: readonly ToolValidationIssue[]): string {
  const shown = issues.slice(0, 10).map((i) => (i.path ? `${i.path}: ${i.message}` : i.message));
  const more = issues.length > shown.length ? `; and ${issues.length - shown.length} more` : '';
  return `${issues.length} ${issues.length === 1 ? 'issue' : 'issues'} (${shown.join('; ')}${more})`;
}

/** The model's arguments did not match the tool's input schema; `execute` did not run. */
export class ToolArgumentsValidationError extends ToolCallError {
  readonly [toolErrorKind] = 'validation' as const;
  readonly issues: ToolValidationIssue[];

  constructor(toolName: string, issues: ToolValidationIssue[]) {
    super(ERROR_CODES.LOUSHO_INVALID_TOOL_ARGUMENTS, toolName, `Invalid arguments for tool '${toolName}': ${summarizeIssues(issues)}`, {
      hint: "Send arguments that match the tool's parameters schema.",
    });
    this.name = 'ToolArgumentsValidationError';
    this.issues = issues;
  }
}

/** A tool returned a result that does not match its `outputSchema`. */
export class ToolOutputValidationError extends ToolCallError {
  readonly [toolErrorKind] = 'output-validation' as const;
  readonly issues: ToolValidationIssue[];

  constructor(toolName: string, issues: ToolValidationIssue[]) {
    super(ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT, toolName, `Invalid result from tool '${toolName}': ${summarizeIssues(issues)}`, {
      hint: 'Fix the tool so it returns what its outputSchema describes, or loosen the schema.',
    });
    this.name = 'ToolOutputValidationError';
    this.issues = issues;
  }
}

/** The model called a tool that is not registered. */
export class ToolNotFoundError extends ToolCallError {
  readonly [toolErrorKind] = 'not-found' as const;

  constructor(toolName: string, available?: readonly string[]) {
    const list = available === undefined ? '' : ` Available tools: ${available.length > 0 ? available.join(', ') : '(none)'}.`;
    super(ERROR_CODES.LOUSHO_TOOL_NOT_FOUND, toolName, `Tool '${toolName}' does not exist.${list}`, {
      hint: 'Call one of the available tools by its exact name.',
    });
    this.name = 'ToolNotFoundError';
  }
}

/** A reviewer rejected the call at an approval. */
export class ToolRejectedError extends ToolCallError {
  readonly [toolErrorKind] = 'rejected' as const;
  readonly note: string | undefined;

  constructor(toolName: string, note?: string) {
    super(ERROR_CODES.LOUSHO_TOOL_REJECTED, toolName, note ? `The call to '${toolName}' was rejected: ${note}` : `The call to '${toolName}' was rejected.`);
    this.name = 'ToolRejectedError';
    this.note = note;
  }
}

/** The call was never started (e.g. a resumed run whose remaining calls were not saved). */
export class ToolNotRunError extends ToolCallError {
  readonly [toolErrorKind] = 'not-run' as const;

  constructor(toolName: string, message = `The call to '${toolName}' was not run.`) {
    super(ERROR_CODES.LOUSHO_TOOL_NOT_RUN, toolName, message);
    this.name = 'ToolNotRunError';
  }
}

/** A `deny` permission rule (or hook) refused the call; `execute` did not run. */
export class ToolDeniedError extends ToolCallError {
  readonly [toolErrorKind] = 'denied' as const;
  readonly reason: string | undefined;

  constructor(toolName: string, reason?: string) {
    super(ERROR_CODES.LOUSHO_TOOL_DENIED, toolName, reason ? `The call to '${toolName}' was denied: ${reason}` : `The call to '${toolName}' was denied by a permission rule.`);
    this.name = 'ToolDeniedError';
    this.reason = reason;
  }
}

/** The tool requires a sandbox it cannot have, so it was refused rather than run unsandboxed. */
export class SandboxRequiredError extends ToolCallError {
  readonly [toolErrorKind] = 'sandbox' as const;

  constructor(toolName: string, message = `'${toolName}' requires a sandbox but has no sandboxExecute; it was refused rather than run unsandboxed.`) {
    super(ERROR_CODES.LOUSHO_SANDBOX_REQUIRED, toolName, message, {
      hint: 'Give the tool a sandboxExecute function and configure a SandboxAdapter, or drop requiresSandbox.',
    });
    this.name = 'SandboxRequiredError';
  }
}

/** An MCP server answered `isError: true`; the message is the server's text. */
export class McpToolError extends ToolCallError {
  readonly [toolErrorKind] = 'mcp' as const;

  constructor(toolName: string, serverText: string) {
    super(ERROR_CODES.LOUSHO_MCP_TOOL_ERROR, toolName, serverText);
    this.name = 'McpToolError';
  }
}

/** A stop reached the call before it ran (or while it ran); every call still gets a result. */
export class ToolCancelledError extends ToolCallError {
  readonly [toolErrorKind] = 'cancelled' as const;

  constructor(toolName: string, message = `The call to '${toolName}' was cancelled because the run was stopped.`) {
    super(ERROR_CODES.LOUSHO_TOOL_CANCELLED, toolName, message);
    this.name = 'ToolCancelledError';
  }
}

const PROPAGATING_BRAND = Symbol.for('lousho.propagatingToolError');

/**
 * Extend this for failures that must abort the run instead of becoming a tool result (for
 * example a delegation depth guard). A subclass keeps its own class name as `name`.
 */
export class PropagatingToolError extends SDKError {
  constructor(message: string, options: { code?: ErrorCode | (string & {}); hint?: string; cause?: unknown } = {}) {
    super(options.code ?? ERROR_CODES.LOUSHO_PROPAGATING_TOOL_ERROR, message, options);
    this.name = new.target.name || 'PropagatingToolError';
    Object.defineProperty(this, PROPAGATING_BRAND, { value: true });
  }

  /** `instanceof` that also recognises errors from another copy of the package. */
  static override is(value: unknown): value is PropagatingToolError {
    return value instanceof PropagatingToolError || (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[PROPAGATING_BRAND] === true);
  }
}

/** What `toolErrorResult()` takes to build the structured error result of a failed call. */
export interface ToolErrorResultOptions {
  toolName: string;
  /** What failed: a thrown value (any type), or a message string for a failure that is not an error. */
  error: unknown;
  /** Forces the kind; otherwise the error's `toolErrorKind` property decides, then `'execution'`. */
  kind?: ToolErrorKind;
  /** Accepted for wrappers that have it; the result does not repeat it (the tool message carries the id). */
  toolCallId?: string;
  /** Kind extras: `issues` (validation), `note` (rejected), `reason` (denied). Override what the error carries. */
  details?: Pick<ToolErrorResult, 'issues' | 'note' | 'reason'>;
}

/**
 * Builds the result the model gets for a failed call. `error` is the thrown error's name (or the
 * kind's default name when `error` is not an Error), `message` is the message only, without stack
 * frames, at most 2,000 characters with `... (truncated)` marking a cut.
 */
export function toolErrorResult({ toolName, error, kind, details }: ToolErrorResultOptions): ToolErrorResult {
  const resolvedKind = kind ?? kindCarriedBy(error) ?? 'execution';
  const thrown = describeThrown(error);
  const isThrownError = error instanceof Error || (typeof error === 'object' && error !== null && thrown.name !== undefined);
  const name = isThrownError && thrown.name ? thrown.name : DEFAULT_TOOL_ERROR_NAMES[resolvedKind];
  const text = error === undefined || error === null ? '' : stripStackFrames(thrown.message).trim();

  const result: ToolErrorResult = {
    error: name,
    toolName,
    message: truncateMessage(text || defaultMessage(name, toolName, error), MAX_TOOL_ERROR_MESSAGE_LENGTH),
    kind: resolvedKind,
  };

  const carried = (typeof error === 'object' && error !== null ? error : {}) as Partial<Record<'issues' | 'note' | 'reason', unknown>>;
  const issues = details?.issues ?? (Array.isArray(carried.issues) ? (carried.issues as unknown[]) : undefined);
  if (resolvedKind === 'validation' || resolvedKind === 'output-validation') {
    // These kinds always list issues, so a consumer can map over them without a check.
    result.issues = issues && issues.length > 0 ? issues.map(cleanIssue) : [{ path: '', message: result.message }];
  }
  const note = details?.note ?? (typeof carried.note === 'string' ? carried.note : undefined);
  if (resolvedKind === 'rejected' && note) result.note = truncateMessage(note, MAX_TOOL_ERROR_MESSAGE_LENGTH);
  const reason = details?.reason ?? (typeof carried.reason === 'string' ? carried.reason : undefined);
  if (resolvedKind === 'denied' && reason) result.reason = truncateMessage(reason, MAX_TOOL_ERROR_MESSAGE_LENGTH);
  return result;
}

function kindCarriedBy(error: unknown): ToolErrorKind | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const carried = (error as Record<string, unknown>)[toolErrorKind];
  return isToolErrorKind(carried) ? carried : undefined;
}

function defaultMessage(name: string, toolName: string, error: unknown): string {
  if (error === undefined || error === null) return `Tool '${toolName}' failed without an error (${String(error)} was thrown).`;
  return `Tool '${toolName}' failed with ${name} and no message.`;
}

/** Issues from outside (a hook, a caller) are cut to size and reduced to `{ path, message }`. */
function cleanIssue(issue: unknown): ToolValidationIssue {
  const { path, message } = (typeof issue === 'object' && issue !== null ? issue : { message: issue }) as { path?: unknown; message?: unknown };
  return {
    path: typeof path === 'string' ? path : '',
    message: truncateMessage(typeof message === 'string' ? message : String(message), MAX_TOOL_ERROR_MESSAGE_LENGTH),
  };
}

/** Whether a failed call's error must abort the run rather than become a result. */
export function isPropagatingToolError(error: unknown): error is PropagatingToolError {
  return PropagatingToolError.is(error);
}
