import type { AttachmentPart } from '@lousho/protocol';
import { AgentClientError } from './errors.js';
import type { HttpSource } from './types.js';

/**
 * `POST sessions/<id>/files` of a file's bytes as they are (not a form): its type in `content-type`, its name in
 * `?name=`. Loaded with import() on a client's first upload (http-transport.ts), so a page that
 * never uploads does not download it.
 */
export async function upload(source: HttpSource, urlOf: (path: string[]) => string, sessionId: string, file: Blob, name: string | undefined): Promise<AttachmentPart> {
  const url = urlOf([sessionId, 'files']);
  const headers = new Headers(typeof source.headers === 'function' ? await source.headers() : source.headers);
  headers.set('content-type', file.type || 'application/octet-stream');
  const fileName = name ?? (file as Partial<File>).name;
  const response = await (source.fetch ?? fetch)(fileName ? `${url}?name=${encodeURIComponent(fileName)}` : url, { method: 'POST', headers, body: file });
  const body = (await response.json().catch(() => undefined)) as { attachment?: AttachmentPart; error?: { code?: unknown; message?: unknown } } | undefined;
  if (response.ok && body?.attachment) return body.attachment;
  const { code, message } = body?.error ?? {};
  throw typeof code === 'string' && typeof message === 'string'
    ? new AgentClientError(code, message, { status: response.status })
    : new AgentClientError('LOUSHO_BAD_RESPONSE', `HTTP ${response.status}`, { status: response.status });
}
