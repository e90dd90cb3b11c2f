import { ERROR_CODES } from '@lousho/core';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { formatBytes } from '../limits.js';

/*
 * What replaces a message a server sent over `maxResultBytes`: the transports stop keeping it at the
 * limit, read the rest without keeping it, and hand the client an error response for the call it
 * answered instead, so that call ends at once with LOUSHO_MCP_RESULT_TOO_LARGE (not on a timeout,
 * and not as "the server may have crashed").
 */

/** The JSON-RPC error code of that response (the implementation-defined server range). */
export const RESULT_TOO_LARGE_RPC_CODE = -32090;
/** How much of the start and the end of a dropped message is kept to find its `id`. */
export const EDGE_BYTES = 256;

export type RequestId = string | number;

/** The ids of requests sent and not answered yet (for a dropped message whose id cannot be read). */
export class PendingRequests {
  readonly #ids = new Set<RequestId>();

  sent(message: unknown): void {
    for (const one of Array.isArray(message) ? message : [message]) if (isRequest(one)) this.#ids.add(one.id);
  }

  received(message: unknown): void {
    for (const one of Array.isArray(message) ? message : [message]) if (isResponse(one)) this.#ids.delete(one.id);
  }

  all(): RequestId[] {
    return [...this.#ids];
  }
}

/**
 * The error responses that stand for a dropped message: for its own id when the start or the end of
 * the text names it, else for every call still waiting (one of them was answered; which one cannot
 * be told). Nothing for a dropped notification while no call waits.
 */
export function responsesForDropped(head: string, tail: string, bytes: number, limit: number, waiting: readonly RequestId[]): JSONRPCMessage[] {
  const id = idIn(head, tail);
  const ids = id !== undefined ? [id] : waiting;
  const message = `The server's answer is larger than ${formatBytes(limit)} (maxResultBytes; ${bytes} bytes read): it was dropped while reading, and none of it reaches the model.`;
  return ids.map((one) => ({ jsonrpc: '2.0', id: one, error: { code: RESULT_TOO_LARGE_RPC_CODE, message, data: { code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE, limit, bytes } } }) as JSONRPCMessage);
}

/**
 * The top-level `id` of a JSON-RPC response, from its first or last bytes: servers write it either
 * first (`{"jsonrpc":"2.0","id":7,"result":...`) or last (`...,"jsonrpc":"2.0","id":7}`).
 */
export function idIn(head: string, tail: string): RequestId | undefined {
  const first = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*,/.exec(head);
  const last = /,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,200}")\s*(?:,\s*"jsonrpc"\s*:\s*"2\.0"\s*)?\}\s*$/.exec(tail);
  const raw = first?.[1] ?? last?.[1];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as RequestId;
  } catch {
    return undefined;
  }
}

function isRequest(message: unknown): message is { id: RequestId; method: string } {
  return typeof message === 'object' && message !== null && 'method' in message && isId((message as { id?: unknown }).id);
}

function isResponse(message: unknown): message is { id: RequestId } {
  return typeof message === 'object' && message !== null && ('result' in message || 'error' in message) && isId((message as { id?: unknown }).id);
}

function isId(id: unknown): id is RequestId {
  return typeof id === 'string' || typeof id === 'number';
}
