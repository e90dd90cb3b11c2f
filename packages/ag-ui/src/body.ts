import { ERROR_CODES } from '@lousho/core';
import { AgUiRequestError, invalidInput } from './errors.js';

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * The request's JSON body, read up to `maxBytes` (a larger one is refused as soon as it is known to
 * be larger: from its `content-length`, else once that many bytes arrived).
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<unknown> {
  const type = request.headers.get('content-type');
  if (!type || !JSON_TYPE.test(type)) {
    throw new AgUiRequestError(415, ERROR_CODES.LOUSHO_UNSUPPORTED_MEDIA_TYPE, 'The body must be JSON sent with "content-type: application/json".');
  }
  const declared = Number(request.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const bytes = await readBytes(request, maxBytes);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidInput('The body is not valid UTF-8 text.');
  }
  if (text.trim() === '') throw invalidInput('The body is empty; send a JSON object (AG-UI RunAgentInput).');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw invalidInput('The body is not valid JSON.');
  }
}

async function readBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    let next: ReadableStreamReadResult<Uint8Array>;
    try {
      next = await reader.read();
    } catch {
      throw new AgUiRequestError(400, ERROR_CODES.LOUSHO_BODY_INCOMPLETE, 'The request body stopped before its end.');
    }
    if (next.done) break;
    size += next.value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(next.value);
  }
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): AgUiRequestError {
  return new AgUiRequestError(413, ERROR_CODES.LOUSHO_BODY_TOO_LARGE, `The body is larger than ${maxBytes} bytes (maxBodyBytes).`);
}
