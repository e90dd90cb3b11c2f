import type { SerializedError } from '../errors.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): Response {
  return new Response(JSON.stringify(body), { status, headers: headers ? { ...JSON_HEADERS, ...headers } : JSON_HEADERS });
}

/** The one error shape of the handler: `{ error: { code, message } }`, never a stack. */
export function errorResponse(status: number, error: SerializedError, headers?: Record<string, string>): Response {
  return jsonResponse(status, { error: { code: error.code, message: error.message } }, headers);
}
