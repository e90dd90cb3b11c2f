/**
 * What the first bytes of a file say it is. An upload that claims an image (or a PDF) type must
 * start with that type's signature: the header alone is whatever the client says.
 */

/** Bytes `mediaTypeOfBytes` needs to decide (WebP's signature ends at byte 12). */
export const SIGNATURE_BYTES = 12;

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  bytes.length >= at + prefix.length && prefix.every((byte, i) => bytes[at + i] === byte);

const ascii = (text: string): number[] => Array.from(text, (c) => c.charCodeAt(0));

/** The media type the signature at the start of `head` names (PNG, JPEG, GIF, WebP, PDF), else undefined. */
export function mediaTypeOfBytes(head: Uint8Array): string | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, ascii('GIF87a')) || startsWith(head, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(head, ascii('RIFF')) && startsWith(head, ascii('WEBP'), 8)) return 'image/webp';
  if (startsWith(head, ascii('%PDF-'))) return 'application/pdf';
  return undefined;
}

/** Types whose bytes must carry their signature: the ones `mediaTypeOfBytes` knows. */
const SIGNED_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']);

/**
 * True when `head` (the first `SIGNATURE_BYTES` bytes or all of a shorter file) may be a file of
 * `mimeType`: a signed type must carry its own signature; any other type must not carry an
 * image's (a PNG sent as text/plain is refused, so nothing is shown as what it is not).
 */
export function bytesMatchType(mimeType: string, head: Uint8Array): boolean {
  const found = mediaTypeOfBytes(head);
  if (SIGNED_TYPES.has(mimeType)) return found === mimeType;
  return found === undefined || !found.startsWith('image/');
}

/** `type/subtype` of a content-type header, lower case, parameters dropped; undefined when it is not one. */
export function essenceOf(contentType: string | null): string | undefined {
  if (contentType === null) return undefined;
  const essence = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/.test(essence) ? essence : undefined;
}
