import type { ContentPart } from '@lousho/protocol';
import type { FileStore, StoredFile } from '@lousho/protocol';
import { ERROR_CODES } from '@lousho/protocol';
import { acceptUpload, attachmentOf, type UploadLimits } from '@lousho/protocol';
import type { ClientAgent } from '@lousho/protocol';
import type { RequestView } from './request-view.js';
import { echo, HttpError } from './errors.js';

/** The agent's file store; `LOUSHO_FILES_UNSUPPORTED` (501) without one. */
export function filesOf(agent: ClientAgent): FileStore {
  if (!agent.files) {
    throw new HttpError(501, ERROR_CODES.LOUSHO_FILES_UNSUPPORTED, 'This agent keeps no files: uploads and attachments are off.');
  }
  return agent.files;
}

/** `POST /sessions/:id/files`: the raw body, its `content-type`, `?name=` (see `acceptUpload`). */
export function storeUpload(request: RequestView, url: URL, sessionId: string, files: FileStore, limits: UploadLimits): Promise<StoredFile> {
  const declared = Number(request.header('content-length'));
  return acceptUpload(
    files,
    {
      sessionId,
      name: (url.searchParams.get('name') ?? '').slice(0, 1000),
      contentType: request.header('content-type'),
      ...(request.header('content-length') !== null && Number.isFinite(declared) ? { size: declared } : {}),
      body: request.request().body,
    },
    limits,
  );
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

function notFound(fileId: string): HttpError {
  return new HttpError(404, ERROR_CODES.LOUSHO_FILE_NOT_FOUND, `No file '${echo(fileId)}' in this session.`);
}
