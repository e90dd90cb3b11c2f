import { ERROR_CODES, SDKError, serializeError, type ErrorCode } from '@lousho/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * An MCP tool result that reports a failure: the message as text (what a model reads) and
 * `structuredContent.error` with the stable code (what a program reads). Never a stack.
 */
export function errorResult(code: ErrorCode | string, message: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: message }], structuredContent: { error: { code, message } } };
}

/** The agent's final text as a tool result. */
export function textResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }] };
}

/**
 * What a thrown error becomes for an MCP client: an `SDKError`'s code and message (stack frames
 * removed); anything else a generic message, reported to `onError`, since it may name internals.
 */
export function thrownResult(error: unknown, onError: (error: unknown) => void): CallToolResult {
  if (SDKError.is(error)) {
    const { code, message } = serializeError(error);
    return errorResult(code, message);
  }
  onError(error);
  return errorResult(ERROR_CODES.LOUSHO_INTERNAL, 'The agent failed unexpectedly; the server logged the details.');
}

/** `value` as a tool result: JSON text, and `structuredContent` for an object; an error past `maxBytes`. */
export function valueResult(value: unknown, maxBytes: number): CallToolResult {
  let json: string | undefined;
  try {
    json = typeof value === 'string' ? value : JSON.stringify(value);
  } catch {
    return errorResult(ERROR_CODES.LOUSHO_INTERNAL, 'The tool returned a value that cannot be sent as JSON.');
  }
  json ??= 'null';
  // A UTF-8 character takes at most 3 bytes per UTF-16 unit; count exactly only when it may matter.
  if (json.length * 3 > maxBytes && new TextEncoder().encode(json).length > maxBytes) {
    return errorResult(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `The tool's result is larger than ${maxBytes} bytes (maxResultBytes).`);
  }
  const structured = typeof value === 'object' && value !== null && !Array.isArray(value);
  return { content: [{ type: 'text', text: json }], ...(structured ? { structuredContent: value as Record<string, unknown> } : {}) };
}

/** The reason of a failed elicitation as a client may have worded it: one line, cut short. */
export function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
