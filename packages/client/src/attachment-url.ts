import type { AttachmentPart } from '@lousho/protocol';

/** `blob:` URLs of the files this page uploaded in process (the agent's store has no URL), by file id. */
const pageFiles = new Map<string, string>();

/** Keeps a `blob:` URL of a file this page uploaded in process (the in-process transport calls it once the file is stored). */
export function rememberPageFile(fileId: string, file: Blob): void {
  if (typeof URL.createObjectURL === 'function') pageFiles.set(fileId, URL.createObjectURL(file));
}

/**
 * Where a UI shows an attachment (`<img src>`, a download link): over HTTP (`url` given),
 * `GET <url>/sessions/<sessionId>/files/<fileId>` (cookies
 * authenticate it; with header credentials, fetch it yourself); in process, a `blob:` URL of a
 * file this page uploaded, else undefined (a file from before a reload: show a chip). Its own export, so a page that shows no
 * attachments does not ship it.
 */
export function attachmentUrl(part: AttachmentPart, source: { url?: string; sessionId?: string | undefined }): string | undefined {
  const local = pageFiles.get(part.fileId);
  if (local !== undefined || !source.url || !source.sessionId) return local;
  return `${source.url.replace(/\/+$/, '')}/sessions/${encodeURIComponent(source.sessionId)}/files/${encodeURIComponent(part.fileId)}`;
}
