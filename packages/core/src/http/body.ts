import { ERROR_CODES } from '../errors.js';
import { fromUtf8 } from '../utils/bytes.js';
import { echo, HttpError } from './errors.js';

/** `application/json` or any `+json` type (parameters such as `charset` allowed). */
const JSON_TYPE = /^\s*application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Reads a JSON request body of at most `maxBytes` bytes. A declared `content-length` over the
 * limit is refused before reading; a body that grows past it while streaming is cut off.
 * Requiring a JSON content type keeps plain HTML forms of other sites from posting here.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) {
    await discard(request);
    throw new HttpError(
      415,
      ERROR_CODES.LOUSHO_UNSUPPORTED_MEDIA_TYPE,
      `The body must be JSON sent with "content-type: application/json"${type ? ` (got "${echo(type)}")` : ''}.`,
    );
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await discard(request);
    throw tooLarge(maxBytes);
  }
  const bytes = await readLimited(request, maxBytes);
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

async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const body = request.body;
  if (!body) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      // The client went away (or the connection broke) while sending: nobody is wrong here, and
      // nobody may be left to answer. Not an unexpected failure of the server.
      throw new HttpError(400, ERROR_CODES.LOUSHO_BODY_INCOMPLETE, 'The request body ended before it was complete.');
    }
    const { done, value } = chunk;
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, ERROR_CODES.LOUSHO_BODY_TOO_LARGE, `The body is larger than the limit of ${maxBytes} bytes.`);
}

/** Tells the sender we will not read its body (frees the connection sooner). */
async function discard(request: Request): Promise<void> {
  if (request.body && !request.bodyUsed) await request.body.cancel().catch(() => {});
}
