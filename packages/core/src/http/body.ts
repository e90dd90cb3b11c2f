import { ERROR_CODES } from '@lousho/protocol';
import { fromUtf8 } from '@lousho/protocol';
import { echo, HttpError } from './errors.js';
import { tooLarge, type RequestView } from './request-view.js';

/** `application/json` or any `+json` type (parameters such as `charset` allowed). */
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON request body of at most `maxBytes` bytes. A declared `content-length` over the
 * limit is refused before reading; a body that grows past it while streaming is cut off.
 * Requiring a JSON content type keeps plain HTML forms of other sites from posting here.
 */
export async function readJsonBody(request: RequestView, maxBytes: number): Promise<unknown> {
  const type = request.header('content-type');
  if (!type || !JSON_TYPE.test(type)) {
    await request.discardBody();
    throw new HttpError(
      415,
      ERROR_CODES.LOUSHO_UNSUPPORTED_MEDIA_TYPE,
      `The body must be JSON sent with "content-type: application/json"${type ? ` (got "${echo(type)}")` : ''}.`,
    );
  }
  const declared = Number(request.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.discardBody();
    throw tooLarge(maxBytes);
  }
  const bytes = await request.readBody(maxBytes);
  let text: string;
  try {
    text = fromUtf8(bytes);
  } catch {
    throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The body is not valid UTF-8 text.');
  }
  if (text.trim() === '') throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The body is empty; send a JSON object.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new HttpError(400, ERROR_CODES.LOUSHO_INVALID_INPUT, 'The body is not valid JSON.');
  }
}
