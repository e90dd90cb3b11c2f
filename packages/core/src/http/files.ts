import type { AttachmentPart, ContentPart } from '../contracts/messages.js';
import type { FileStore, StoredFile } from '../contracts/files.js';
import { ERROR_CODES, SDKError } from '../errors.js';
import { chunksOf } from '../files/file-bytes.js';
import { bytesMatchType, essenceOf, SIGNATURE_BYTES } from '../files/signature.js';
import type { ClientAgent } from '../protocol/client-agent.js';
import { bodyIncomplete, type RequestView } from './request-view.js';
import { echo, HttpError } from './errors.js';

/** What `POST /sessions/:id/files` takes: the largest file and the media types (`type/subtype` or `type/*`). */
export interface FileLimits {
  maxFileBytes: number;
  fileTypes: readonly string[];
}

/** 10 MiB. */
export const DEFAULT_MAX_FILE_BYTES = 10 * 1024 * 1024;

/** Images the built-in providers show to vision models, PDFs, and plain text formats. */
export const DEFAULT_FILE_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf', 'text/plain', 'text/markdown', 'text/csv', 'application/json'];

/** The agent's file store; `LOUSHO_FILES_UNSUPPORTED` (501) without one. */
export function filesOf(agent: ClientAgent): FileStore {
  if (!agent.files) {
    throw new HttpError(501, ERROR_CODES.LOUSHO_FILES_UNSUPPORTED, 'This agent keeps no files: uploads and attachments are off.');
  }
  return agent.files;
}

/** The attachment part of a stored file: what `POST /sessions/:id/files` answers and a message sends. */
export function attachmentOf(file: StoredFile): AttachmentPart {
  return { type: 'attachment', fileId: file.id, name: file.name, mimeType: file.mimeType, size: file.size };
}

/**
 * Checks an upload's header (type allowed, declared length within the limit) and its first bytes
 * (an image or a PDF carries its signature), then stores it, streamed: never more than a chunk or
 * two in memory. Nothing is stored for a refused upload.
 */
export async function storeUpload(request: RequestView, url: URL, sessionId: string, files: FileStore, limits: FileLimits): Promise<StoredFile> {
  const mimeType = essenceOf(request.header('content-type'));
  if (mimeType === undefined || !typeAllowed(mimeType, limits.fileTypes)) {
    await request.discardBody();
    throw typeRefused(`Files of type "${echo(mimeType ?? request.header('content-type') ?? '(none)')}" are not accepted here; send one of: ${limits.fileTypes.join(', ')}.`);
  }
  const declared = Number(request.header('content-length'));
  if (Number.isFinite(declared) && declared > limits.maxFileBytes) {
    await request.discardBody();
    throw tooLargeFile(limits.maxFileBytes);
  }
  const name = (url.searchParams.get('name') ?? '').slice(0, 1000);
  const body = request.request().body;
  const chunks = readingErrorsAsIncomplete(chunksOf(body ?? new ReadableStream({ start: (c) => c.close() })));
  const head = await readHead(chunks);
  if (!bytesMatchType(mimeType, concat(head))) {
    await chunks.return(undefined);
    throw typeRefused(`The file's bytes are not a ${echo(mimeType)} file (its first bytes do not match the type it was sent as).`);
  }
  try {
    return await files.put({ sessionId, name: name || 'file', mimeType, body: prepend(head, chunks), maxBytes: limits.maxFileBytes });
  } catch (error) {
    if (SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_FILE_TOO_LARGE) throw tooLargeFile(limits.maxFileBytes);
    throw error;
  }
}

/** `GET /sessions/:id/files/:fileId`: the bytes with their type, never sniffed, never run as a page. */
export async function fileResponse(files: FileStore, sessionId: string, fileId: string): Promise<Response> {
  const info = await files.info(fileId);
  const content = info?.sessionId === sessionId ? await files.get(fileId) : undefined;
  if (!content || content.file.sessionId !== sessionId) throw notFound(fileId);
  const { file } = content;
  const iterator = content.body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    async cancel() {
      await iterator.return?.();
    },
  });
  const inline = /^image\/(?:png|jpeg|gif|webp)$/.test(file.mimeType) || file.mimeType === 'application/pdf';
  return new Response(stream, {
    status: 200,
    headers: {
      'content-type': file.mimeType,
      'content-length': String(file.size),
      'content-disposition': `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      'x-content-type-options': 'nosniff',
      // Whatever the file holds, it never runs as a page of this origin.
      'content-security-policy': "default-src 'none'; sandbox",
      // A file id names one content forever.
      'cache-control': 'private, max-age=31536000, immutable',
    },
  });
}

/**
 * The input's attachment parts as the store has them (name, type, size from the store, not the
 * client), each checked to be a file of this session: another session's file is unknown (404).
 */
export async function checkAttachments(input: string | ContentPart[], agent: ClientAgent, sessionId: string): Promise<string | ContentPart[]> {
  if (typeof input === 'string' || !input.some((part) => part.type === 'attachment')) return input;
  const files = filesOf(agent);
  return Promise.all(
    input.map(async (part) => {
      if (part.type !== 'attachment') return part;
      const file = await files.info(part.fileId);
      if (file?.sessionId !== sessionId) throw notFound(part.fileId);
      return attachmentOf(file);
    }),
  );
}

function typeAllowed(mimeType: string, allowed: readonly string[]): boolean {
  return allowed.some((type) => type === mimeType || (type.endsWith('/*') && mimeType.startsWith(type.slice(0, -1))));
}

function typeRefused(message: string): HttpError {
  return new HttpError(415, ERROR_CODES.LOUSHO_FILE_TYPE_REFUSED, message);
}

function tooLargeFile(maxBytes: number): HttpError {
  return new HttpError(413, ERROR_CODES.LOUSHO_FILE_TOO_LARGE, `The file is larger than the limit of ${maxBytes} bytes.`);
}

function notFound(fileId: string): HttpError {
  return new HttpError(404, ERROR_CODES.LOUSHO_FILE_NOT_FOUND, `No file '${echo(fileId)}' in this session.`);
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

/** A client that goes away mid-upload is `LOUSHO_BODY_INCOMPLETE` (400), whatever the stream failed with. */
async function* readingErrorsAsIncomplete(chunks: AsyncGenerator<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* chunks;
  } catch {
    throw bodyIncomplete();
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
