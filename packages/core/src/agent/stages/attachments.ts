import type { ContentPart, Message } from '@lousho/protocol';
import type { FileStore } from '@lousho/protocol';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { fileNotFound, readAll } from '@lousho/protocol';
import { bytesToBase64 } from '../../files/base64.js';

/** Image types every built-in provider takes as an image; other files go as files (PDF, text, ...). */
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * The messages a model call sends, with each `attachment` part replaced by its bytes from the
 * file store, as the image or file part the providers map to their own formats. The transcript
 * keeps the references; only the request gets the bytes. Messages without attachments are the
 * same objects (and an array without any is returned as it is).
 */
export async function resolveAttachments(messages: readonly Message[], files: FileStore | undefined): Promise<Message[]> {
  if (!messages.some(hasAttachment)) return messages as Message[];
  if (!files) {
    throw new SDKError(ERROR_CODES.LOUSHO_FILES_UNSUPPORTED, 'A message has an attachment, and the agent has no file store to read it from.', {
      hint: 'Give the agent the store the file was uploaded to: createAgent({ files }).',
    });
  }
  return Promise.all(
    messages.map(async (message) =>
      hasAttachment(message) ? { ...message, content: await Promise.all((message.content as ContentPart[]).map((part) => resolvePart(part, files))) } : message,
    ),
  );
}

async function resolvePart(part: ContentPart, files: FileStore): Promise<ContentPart> {
  if (part.type !== 'attachment') return part;
  const content = await files.get(part.fileId);
  if (!content) throw fileNotFound(part.fileId);
  const data = bytesToBase64(await readAll(content.body));
  const { mimeType, name } = content.file;
  return IMAGE_TYPES.has(mimeType) ? { type: 'image', image: data, mimeType } : { type: 'file', data, mimeType, filename: name };
}

function hasAttachment(message: Message): boolean {
  return typeof message.content !== 'string' && message.content.some((part) => part.type === 'attachment');
}
