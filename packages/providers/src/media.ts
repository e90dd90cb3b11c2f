/**
 * Normalises image and file parts for the provider mappers. A part may hold a URL, a `data:` URL
 * or bare base64; each API wants one of those forms plus a media type, so both are worked out here.
 */
import type { FilePart, ImagePart } from '@lousho/protocol';

/** Where an image's bytes are: a URL the provider fetches, or inline base64 with its media type. */
export type MediaSource = { kind: 'url'; url: string } | { kind: 'base64'; mimeType: string; data: string };

/** The image as a URL or as base64 data; the media type comes from the part, the data URL or the bytes. */
export function imageSource(part: ImagePart): MediaSource {
  const value = part.image.trim();
  const inline = parseDataUrl(value);
  if (inline) return { kind: 'base64', mimeType: part.mimeType ?? inline.mimeType ?? sniffImageType(inline.data) ?? 'image/png', data: inline.data };
  if (/^https?:\/\//i.test(value)) return { kind: 'url', url: value };
  const data = value.replace(/\s+/g, '');
  return { kind: 'base64', mimeType: part.mimeType ?? sniffImageType(data) ?? 'image/png', data };
}

/** The image as one URL (`data:` for inline bytes), the form OpenAI-style APIs take. */
export function imageUrl(part: ImagePart): string {
  const source = imageSource(part);
  return source.kind === 'url' ? source.url : `data:${source.mimeType};base64,${source.data}`;
}

/** A file's bytes as base64 and its media type (the part's type wins over the data URL's). */
export function fileSource(part: FilePart): { mimeType: string; data: string; filename?: string } {
  const value = part.data.trim();
  const inline = parseDataUrl(value);
  const data = inline ? inline.data : value.replace(/\s+/g, '');
  return { mimeType: part.mimeType || inline?.mimeType || 'application/octet-stream', data, ...(part.filename ? { filename: part.filename } : {}) };
}

/** True for media types whose bytes are text a model can read inline. */
export function isTextMediaType(mimeType: string): boolean {
  return /^text\//i.test(mimeType) || /^application\/(?:json|xml|x-yaml|yaml)\b/i.test(mimeType);
}

/** UTF-8 text of base64 data (browser-safe: atob + TextDecoder). */
export function decodeBase64Text(data: string): string {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new TextDecoder().decode(bytes);
}

/** Base64 of a UTF-8 string (browser-safe). */
export function encodeBase64Text(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** `data:[type][;base64],payload` → the payload as base64 and the type; undefined for anything else. */
export function parseDataUrl(value: string): { mimeType: string | undefined; data: string } | undefined {
  if (!/^data:/i.test(value)) return undefined;
  const comma = value.indexOf(',');
  if (comma < 0) return undefined;
  const meta = value.slice(5, comma);
  const payload = value.slice(comma + 1);
  const params = meta.split(';');
  const mimeType = params[0] ? params[0].toLowerCase() : undefined;
  const isBase64 = params.slice(1).some((p) => p.toLowerCase() === 'base64');
  const data = isBase64 ? payload.replace(/\s+/g, '') : encodeBase64Text(decodeURIComponent(payload));
  return { mimeType, data };
}

/** The image type from the first bytes of base64 data (the signatures of PNG, JPEG, GIF and WebP). */
export function sniffImageType(base64: string): string | undefined {
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return undefined;
}
