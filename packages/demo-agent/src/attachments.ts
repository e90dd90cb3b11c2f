/** What the demos show of attachments, shared by the React, Vue and Svelte demos. */

/** Images shown as thumbnails; every other file is a chip with its name. */
export const isThumbnailType = (mimeType: string): boolean => /^image\/(?:png|jpeg|gif|webp)$/.test(mimeType);

/** The file picker's `accept`: what the demo server takes (the handler's default `fileTypes`). */
export const ATTACHMENT_ACCEPT = 'image/png,image/jpeg,image/gif,image/webp,application/pdf,text/plain,text/markdown,text/csv,application/json';

/** `12 KB`, `1.4 MB`: a file's size on its chip. */
export function formatFileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The files of a drop or a paste (a paste of text has none). */
export function filesOf(data: DataTransfer | null): File[] {
  return data ? Array.from(data.files) : [];
}
