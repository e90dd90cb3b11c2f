// Codes written out (each is in ERROR_CODES): this module is in the in-process client's chunk, which must not pull the whole table in.
import type { AttachmentPart } from '../messages.js';
import type { FileStore, StoredFile } from '../contracts/files.js';
import { SDKError } from '../errors.js';
import { chunksOf, fileTooLarge } from './file-bytes.js';
import { bytesMatchType, essenceOf, SIGNATURE_BYTES } from './signature.js';

/** What an upload may be: the largest file and the media types (`type/subtype` or `type/*`). */
export interface UploadLimits {
  maxFileBytes: number;
  fileTypes: readonly string[];
}

/** 10 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Images the built-in providers show to vision models, PDFs, and plain text formats. */
export const DEFAULT_FILE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv', 'application/json'];

/** An upload as both transports get it: the raw `content-type`, the declared size when known, the bytes. */
export interface Upload {
  sessionId: string;
  name: string;
  contentType: string | null;
  size?: number;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Checks an upload and stores it, streamed (a chunk or two in memory): its type allowed
 * (`LOUSHO_FILE_TYPE_REFUSED`), its declared size within the limit (`LOUSHO_FILE_TOO_LARGE`, before
 * a byte is read), its first bytes of the type it claims (an image or a PDF carries its signature),
 * and its bytes within the limit as they stream. Nothing is stored for a refused upload; a body
 * that breaks off is `LOUSHO_BODY_INCOMPLETE`. The HTTP handler and the in-process client share it.
 */
export async function acceptUpload(files: FileStore, upload: Upload, limits: UploadLimits): Promise<StoredFile> {
  const body = upload.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  const mimeType = essenceOf(upload.contentType);
  const refuse = async (error: SDKError): Promise<never> => {
    await drain(chunksOf(body), limits.maxFileBytes);
    throw error;
  };
  if (mimeType === undefined || !typeAllowed(mimeType, limits.fileTypes)) {
    return refuse(typeRefused(`Files of type "${(mimeType ?? upload.contentType ?? '(none)').slice(0, 80)}" are not accepted here; send one of: ${limits.fileTypes.join(', ')}.`));
  }
  // (Not drained: a body declared too large is cut off at once.)
  if (upload.size !== undefined && upload.size > limits.maxFileBytes) {
    await body.cancel().catch(() => {});
    throw fileTooLarge(limits.maxFileBytes);
  }
  const chunks = incompleteOnFailure(chunksOf(body));
  const head = await readHead(chunks);
  if (!bytesMatchType(mimeType, concat(head))) {
    await drain(chunks, limits.maxFileBytes);
    throw typeRefused(`The file's bytes are not ${mimeType} (its first bytes do not match the type it was sent as).`);
  }
  return files.put({ sessionId: upload.sessionId, name: upload.name || 'file', mimeType, body: prepend(head, chunks), maxBytes: limits.maxFileBytes });
}

/** The attachment part of a stored file: what an upload answers and a message sends. */
export function attachmentOf(file: StoredFile): AttachmentPart {
  return { type: 'attachment', fileId: file.id, name: file.name, mimeType: file.mimeType, size: file.size };
}

function typeAllowed(mimeType: string, allowed: readonly string[]): boolean {
  return allowed.some((type) => type === mimeType || (type.endsWith('/*') && mimeType.startsWith(type.slice(0, -1))));
}

function typeRefused(message: string): SDKError {
  return new SDKError('LOUSHO_FILE_TYPE_REFUSED', message, { hint: 'Send the file with its real type, or allow the type (fileTypes in createAgentHandler()).' });
}

/**
 * Reads and drops what is left of a refused body, up to `maxBytes` (past it, the body is
 * cancelled): a server that resets the connection when a body is cancelled (SvelteKit's Node
 * adapter) still gets the answer to the client.
 */
async function drain(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<void> {
  let size = 0;
  try {
    for await (const chunk of chunks) {
      size += chunk.byteLength;
      if (size > maxBytes) break;
    }
  } catch {
    // A body that breaks off while dropped: nothing more to drop.
  }
}

/** The first chunks, up to `SIGNATURE_BYTES` bytes or the end of the body. */
async function readHead(chunks: AsyncGenerator<Uint8Array>): Promise<Uint8Array[]> {
  const head: Uint8Array[] = [];
  let size = 0;
  while (size < SIGNATURE_BYTES) {
    const { done, value } = await chunks.next();
    if (done) break;
    head.push(value);
    size += value.byteLength;
  }
  return head;
}

async function* prepend(head: Uint8Array[], rest: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield* head;
  yield* rest;
}

/** A body that fails while it is read (the client went away) is `LOUSHO_BODY_INCOMPLETE`, whatever it failed with. */
async function* incompleteOnFailure(chunks: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch {
    throw new SDKError('LOUSHO_BODY_INCOMPLETE', 'The file ended before it was complete (the upload broke off).');
  }
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
