/**
 * The SDK's own errors. Every error a user (or a browser) can see has a stable `code` to branch on,
 * a `hint` saying how to fix it and a `docs` link. This module has no imports so it can be loaded on
 * its own by any entry point.
 */

/** Every stable error code, in one flat object (`ERROR_CODES.LOUSHO_DUPLICATE_TOOL`, ...). */
export const ERROR_CODES = {
  /** Something failed that the SDK did not expect; the message names the original error. */
  LOUSHO_INTERNAL: 'LOUSHO_INTERNAL',
  /** A user-supplied value (message, option, request body) is malformed. */
  LOUSHO_INVALID_INPUT: 'LOUSHO_INVALID_INPUT',
  /** `defineTool()` or a registered descriptor has a bad name, description, schema or function. */
  LOUSHO_INVALID_TOOL_DEFINITION: 'LOUSHO_INVALID_TOOL_DEFINITION',
  /** Two tools were registered under the same name. */
  LOUSHO_DUPLICATE_TOOL: 'LOUSHO_DUPLICATE_TOOL',
  /** A name given to the registry (e.g. by an agent config) has no tool behind it. */
  LOUSHO_UNKNOWN_TOOL: 'LOUSHO_UNKNOWN_TOOL',
  /** A schema cannot be turned into the JSON Schema providers need. */
  LOUSHO_UNSUPPORTED_SCHEMA: 'LOUSHO_UNSUPPORTED_SCHEMA',
  /** The model's tool arguments did not match the tool's input schema. */
  LOUSHO_INVALID_TOOL_ARGUMENTS: 'LOUSHO_INVALID_TOOL_ARGUMENTS',
  /** A tool's result did not match its `outputSchema`. */
  LOUSHO_INVALID_TOOL_OUTPUT: 'LOUSHO_INVALID_TOOL_OUTPUT',
  /** The model called a tool that is not registered. */
  LOUSHO_TOOL_NOT_FOUND: 'LOUSHO_TOOL_NOT_FOUND',
  /** A reviewer rejected a tool call. */
  LOUSHO_TOOL_REJECTED: 'LOUSHO_TOOL_REJECTED',
  /** A tool call was never started. */
  LOUSHO_TOOL_NOT_RUN: 'LOUSHO_TOOL_NOT_RUN',
  /** A permission rule refused a tool call. */
  LOUSHO_TOOL_DENIED: 'LOUSHO_TOOL_DENIED',
  /** A stop reached a tool call before it ran. */
  LOUSHO_TOOL_CANCELLED: 'LOUSHO_TOOL_CANCELLED',
  /** A tool needs a sandbox it cannot have. */
  LOUSHO_SANDBOX_REQUIRED: 'LOUSHO_SANDBOX_REQUIRED',
  /** An MCP server answered a call with `isError: true`. */
  LOUSHO_MCP_TOOL_ERROR: 'LOUSHO_MCP_TOOL_ERROR',
  /** An MCP server could not be started or reached (the message names the server and its command or URL). */
  LOUSHO_MCP_CONNECT_FAILED: 'LOUSHO_MCP_CONNECT_FAILED',
  /** An MCP call failed without an answer: a timeout, a crashed server, a protocol error. */
  LOUSHO_MCP_CALL_FAILED: 'LOUSHO_MCP_CALL_FAILED',
  /** `mcpServers` was given to an agent built without MCP support (core's `createAgent`). */
  LOUSHO_MCP_UNAVAILABLE: 'LOUSHO_MCP_UNAVAILABLE',
  /** A tool error that must abort the run instead of becoming a result. */
  LOUSHO_PROPAGATING_TOOL_ERROR: 'LOUSHO_PROPAGATING_TOOL_ERROR',
  /** A delegation would nest sub-agents deeper than `maxSubagentDepth` (it rejects the run). */
  LOUSHO_SUBAGENT_DEPTH: 'LOUSHO_SUBAGENT_DEPTH',
  /** An agent/builder option has a value the SDK cannot use. */
  LOUSHO_INVALID_CONFIG: 'LOUSHO_INVALID_CONFIG',
  /** A dynamic config resolver threw or returned something unusable. */
  LOUSHO_CONFIG_RESOLVER_FAILED: 'LOUSHO_CONFIG_RESOLVER_FAILED',
  /** No pending approval has the given id. */
  LOUSHO_APPROVAL_NOT_FOUND: 'LOUSHO_APPROVAL_NOT_FOUND',
  /** The approval exists but was already decided. */
  LOUSHO_APPROVAL_NOT_PENDING: 'LOUSHO_APPROVAL_NOT_PENDING',
  /** `approve()` was used on a question, or `answer()` on a tool approval. */
  LOUSHO_APPROVAL_KIND_MISMATCH: 'LOUSHO_APPROVAL_KIND_MISMATCH',
  /** The session is paused on an approval; decide it before sending more. */
  LOUSHO_SESSION_AWAITING_APPROVAL: 'LOUSHO_SESSION_AWAITING_APPROVAL',
  /** The session is already running a turn. */
  LOUSHO_SESSION_BUSY: 'LOUSHO_SESSION_BUSY',
  /** The LLM provider failed (network, HTTP status, malformed stream). */
  LOUSHO_PROVIDER_ERROR: 'LOUSHO_PROVIDER_ERROR',
  /** A mock provider ran out of scripted responses. */
  LOUSHO_MOCK_EXHAUSTED: 'LOUSHO_MOCK_EXHAUSTED',
  /** An encryption key is not 32 bytes of AES-256 key material. */
  LOUSHO_INVALID_ENCRYPTION_KEY: 'LOUSHO_INVALID_ENCRYPTION_KEY',
  /** Encrypted data was tampered with, truncated, or encrypted with another key. */
  LOUSHO_DECRYPTION_FAILED: 'LOUSHO_DECRYPTION_FAILED',
  /** A `recordReplay` request differs from every recorded one (the message shows the diff). */
  LOUSHO_CASSETTE_MISMATCH: 'LOUSHO_CASSETTE_MISMATCH',
  /** A `recordReplay` cassette was asked for more model calls than it holds. */
  LOUSHO_CASSETTE_EXHAUSTED: 'LOUSHO_CASSETTE_EXHAUSTED',
  /** A `StorageService` could not read or write a value (I/O failure, corrupt data, a lock held too long). */
  LOUSHO_STORAGE_ERROR: 'LOUSHO_STORAGE_ERROR',
} as const;

export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** Where the error reference lives; each code has an anchor there. */
export const ERRORS_DOCS_URL = 'https://lousho.com/errors';

/** The docs anchor of a code: `LOUSHO_DUPLICATE_TOOL` → `https://lousho.com/errors#lousho-duplicate-tool`. */
export function errorDocsUrl(code: string): string {
  return `${ERRORS_DOCS_URL}#${code.toLowerCase().replace(/_/g, '-')}`;
}

export interface SDKErrorOptions {
  /** How to fix it, in one sentence. */
  hint?: string;
  /** A docs URL; defaults to the code's anchor in the error reference. */
  docs?: string;
  /** The underlying error, if any. */
  cause?: unknown;
}

// A registry-wide brand, so two copies of the package (a bundled one and a linked one) still agree.
const SDK_ERROR_BRAND = Symbol.for('lousho.sdkError');

/** Base class of the SDK's errors: a stable `code`, a `hint` and a `docs` link. */
export class SDKError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly docs: string;

  constructor(code: ErrorCode | (string & {}), message: string, options: SDKErrorOptions = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'SDKError';
    this.code = code;
    this.hint = options.hint ?? '';
    this.docs = options.docs ?? errorDocsUrl(code);
    Object.defineProperty(this, SDK_ERROR_BRAND, { value: true });
  }

  /** `instanceof` that also recognises errors made by another copy of the package. */
  static is(value: unknown): value is SDKError {
    return (
      value instanceof SDKError ||
      (typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[SDK_ERROR_BRAND] === true)
    );
  }
}

/** The only form in which an error leaves the server: no stack, no cause chain. */
export interface SerializedError {
  code: string;
  message: string;
}

/** Longest message `serializeError` keeps; past it the text is cut and marked. */
export const MAX_ERROR_MESSAGE_LENGTH = 2000;
export const TRUNCATION_MARKER = '... (truncated)';

/**
 * Cuts `text` to at most `max` characters, the marker included, without splitting a surrogate pair.
 * Text that fits is returned unchanged.
 */
export function truncateMessage(text: string, max = MAX_ERROR_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - TRUNCATION_MARKER.length);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1; // do not leave half a surrogate pair behind
  return text.slice(0, end) + TRUNCATION_MARKER;
}

// A V8 frame ("    at fn (file.js:1:2)", "    at <anonymous>") or a SpiderMonkey/JSC one ("fn@file.js:1:2").
const STACK_FRAME_LINE = /^(?:\s+at\s.*(?::\d+:\d+\)?|\(native\)|<anonymous>\)?)|[^\s@]*@\S+:\d+:\d+)$/;

/** Drops stack-frame lines some libraries paste into messages, so no stack leaks through a message either. */
export function stripStackFrames(text: string): string {
  if (!text.includes('\n')) return text;
  return text
    .split('\n')
    .filter((line) => !STACK_FRAME_LINE.test(line))
    .join('\n')
    .trimEnd();
}

/** A readable one-line text for any thrown value (never its stack). */
export function describeThrown(value: unknown): { name: string | undefined; message: string } {
  if (value instanceof Error || isErrorLike(value)) {
    const { name, message } = value as { name?: unknown; message?: unknown };
    return { name: typeof name === 'string' && name ? name : undefined, message: typeof message === 'string' ? message : '' };
  }
  if (typeof value === 'string') return { name: undefined, message: value };
  if (value === undefined || value === null || typeof value !== 'object') return { name: undefined, message: String(value) };
  try {
    const json = JSON.stringify(value);
    if (json !== undefined && json !== '{}') return { name: undefined, message: json };
  } catch {
    // Cycles or bigints: fall through to the tag.
  }
  return { name: undefined, message: Object.prototype.toString.call(value) };
}

function isErrorLike(value: unknown): boolean {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

/**
 * What a server may send about an error: an SDK error keeps its code and message; anything else
 * becomes `LOUSHO_INTERNAL` with `Name: message`. Never a stack.
 */
export function serializeError(err: unknown): SerializedError {
  if (SDKError.is(err)) return { code: err.code, message: truncateMessage(stripStackFrames(err.message)) };
  const { name, message } = describeThrown(err);
  const text = name ? (message ? `${name}: ${message}` : name) : message || 'Unknown error';
  return { code: ERROR_CODES.LOUSHO_INTERNAL, message: truncateMessage(stripStackFrames(text)) };
}
