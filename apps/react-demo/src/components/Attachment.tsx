import { createContext, useContext } from 'react';
import type { AttachmentPart } from '@lousho/build-ai-agent';
import { formatFileSize, isThumbnailType } from '@lousho/demo-agent';

/** Where the transcript finds an attachment's bytes (`attachmentUrl` with the chat's source and session). */
export const AttachmentUrlContext = createContext<(part: AttachmentPart) => string | undefined>(() => undefined);

/** An attachment in the transcript: an image's thumbnail (a link to the file), else a chip with its name and size. */
export function Attachment({ part }: { part: AttachmentPart }) {
  const url = useContext(AttachmentUrlContext)(part);
  if (url && isThumbnailType(part.mimeType)) {
    return (
      <a href={url} target="_blank" rel="noreferrer" data-testid="attachment">
        <img className="attachment-thumb" src={url} alt={part.name} />
      </a>
    );
  }
  const label = `${part.name} · ${formatFileSize(part.size)}`;
  return url ? (
    <a className="attachment-chip" href={url} target="_blank" rel="noreferrer" data-testid="attachment">
      {label}
    </a>
  ) : (
    <span className="attachment-chip" data-testid="attachment">
      {label}
    </span>
  );
}
