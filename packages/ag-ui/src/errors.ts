import { ERROR_CODES, SDKError } from '@lousho/core';

/** A refusal answered before the stream starts: `{ error: { code, message } }` with `status`. */
export class AgUiRequestError extends SDKError {
  readonly status: number;
  readonly headers: Record<string, string> | undefined;
  constructor(status: number, code: string, message: string, headers?: Record<string, string>) {
    super(code, message);
    this.name = 'AgUiRequestError';
    this.status = status;
    this.headers = headers;
  }
}

export function invalidInput(message: string): AgUiRequestError {
  return new AgUiRequestError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, message);
}

/** The status of the agent's own refusals (they keep their code and message). */
const STATUS_OF_CODE: Record<string, number> = {
  [ERROR_CODES.LOUSHO_SESSION_BUSY]: 409,
  [ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING]: 409,
  [ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND]: 404,
  [ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH]: 400,
  [ERROR_CODES.LOUSHO_INVALID_INPUT]: 400,
  [ERROR_CODES.LOUSHO_SESSION_NOT_FOUND]: 404,
  // A browser tool's result that fails its outputSchema: the call stays open for a good one.
  [ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT]: 422,
};

/** What a thrown error answers: a known refusal keeps its code and message; anything else is a bare 500. */
export function errorResponseOf(error: unknown): { status: number; code: string; message: string; headers?: Record<string, string>; unexpected: boolean } {
  if (error instanceof AgUiRequestError) return { status: error.status, code: error.code, message: error.message, ...(error.headers && { headers: error.headers }), unexpected: false };
  if (SDKError.is(error) && STATUS_OF_CODE[error.code] !== undefined) return { status: STATUS_OF_CODE[error.code]!, code: error.code, message: error.message, unexpected: false };
  return { status: 500, code: ERROR_CODES.LOUSHO_INTERNAL, message: 'The agent failed; the server logged why.', unexpected: true };
}

export function errorResponse(error: unknown, onUnexpected: (error: unknown) => void): Response {
  const answer = errorResponseOf(error);
  if (answer.unexpected) onUnexpected(error);
  return new Response(JSON.stringify({ error: { code: answer.code, message: answer.message } }), {
    status: answer.status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...answer.headers },
  });
}
