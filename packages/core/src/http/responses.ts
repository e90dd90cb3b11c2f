import { truncateMessage, type SerializedError } from '@lousho/protocol';

/** The longest message an error body carries. */
const MAX_ERROR_BODY_MESSAGE = 500;

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
}

/**
 * The one error shape of the handler: `{ error: { code, message } }`, never a stack. The message is
 * cut to a bounded length, whatever it repeats of the request.
 */
export function errorResponse(status: number, error: SerializedError, headers?: Record<string, string>): Response {
  return jsonResponse(status, { error: { code: error.code, message: truncateMessage(error.message, MAX_ERROR_BODY_MESSAGE) } }, headers);
}
