import { SDKError } from '../errors.js';
import type { FileBody } from '../contracts/files.js';

/** `LOUSHO_FILE_TOO_LARGE`: a file over its limit (the handler answers 413). */
export function fileTooLarge(maxBytes: number): SDKError {
  return new SDKError('LOUSHO_FILE_TOO_LARGE', `The file is larger than the limit of ${maxBytes} bytes.`, {
    hint: 'Send a smaller file, or raise maxFileBytes in createAgentHandler().',
  });
}

/** `LOUSHO_FILE_NOT_FOUND`: a file id nobody stored, or one deleted since. */
export function fileNotFound(id: string): SDKError {
  return new SDKError('LOUSHO_FILE_NOT_FOUND', `No file '${id.slice(0, 80)}': it was never stored here, or it was deleted.`, {
    hint: 'Upload the file again (POST /sessions/:id/files) and send the new reference.',
  });
}

/**
 * The chunks of `body`, failing with `LOUSHO_FILE_TOO_LARGE` as soon as they add up to more than
 * `maxBytes` (the source is cancelled then): what every store's `put` reads its bytes through.
 */
export async function* limitedChunks(body: FileBody, maxBytes: number): AsyncGenerator<Uint8Array> {
  let size = 0;
  for await (const chunk of chunksOf(body)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw fileTooLarge(maxBytes);
    if (chunk.byteLength > 0) yield chunk;
  }
}

/** A web stream or an async iterable as an async iterable (a web stream's reader released or cancelled at the end). */
export async function* chunksOf(body: FileBody): AsyncGenerator<Uint8Array> {
  if (!isWebStream(body)) {
    yield* body;
    return;
  }
  const reader = body.getReader();
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        return;
      }
      yield value;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** All of a file's bytes in one array (for a model request, which needs them whole). */
export async function readAll(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function isWebStream(body: FileBody): body is ReadableStream<Uint8Array> {
  return typeof (body as ReadableStream<Uint8Array>).getReader === 'function';
}

/** A new file id: `f_` and 32 hex digits of randomness (Web Crypto, in every runtime). */
export function newFileId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `f_${hex}`;
}

/** True for ids `newFileId` makes: stores look nothing else up (and never build a path from anything else). */
export function isFileId(id: unknown): id is string {
  return typeof id === 'string' && /^f_[0-9a-f]{32}$/.test(id);
}

/**
 * A name as people and models see it: no folders, no control characters, at most 200 characters,
 * `file` when nothing is left. Only ever shown, never used as a path.
 */
export function cleanFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return clean === '' || clean === '.' || clean === '..' ? 'file' : Array.from(clean).slice(0, 200).join('');
}

/**
 * An attachment that reached a provider as a reference: only an agent with a file store turns
 * one into bytes (`createAgent({ files })`), a provider called on its own cannot.
 */
export function unresolvedAttachment(part: { fileId: string }): SDKError {
  return new SDKError('LOUSHO_FILES_UNSUPPORTED', `Attachment '${part.fileId.slice(0, 80)}' is a reference to a stored file; a provider cannot read it on its own.`, {
    hint: 'Run the model through an agent made with createAgent({ files }), which reads the file, or send an image/file part with its bytes.',
  });
}
