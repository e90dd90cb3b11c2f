/**
 * Response headers returned to the model by default: they describe the content and caching.
 * Cookies, auth challenges and server internals are left out.
 */
export const DEFAULT_RESPONSE_HEADERS: readonly string[] = [
  'content-type',
  'content-length',
  'content-language',
  'content-disposition',
  'last-modified',
  'etag',
  'cache-control',
  'expires',
  'age',
  'date',
  'location',
  'retry-after',
  'link',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

export function pickHeaders(headers: Record<string, string>, allowed: ReadonlySet<string>): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (allowed.has(name.toLowerCase())) picked[name.toLowerCase()] = value;
  }
  return picked;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|javascript|ecmascript|x-www-form-urlencoded|x-ndjson|yaml|x-yaml|toml|graphql|sql|csv)\b)|[+/](json|xml)\b/i;

/** True when the content type is readable text (or unknown, in which case the bytes are tried as UTF-8). */
export function isTextContent(contentType: string | undefined): boolean {
  if (!contentType || contentType.trim() === '') return true;
  return TEXT_TYPES.test(contentType.split(';')[0]?.trim() ?? '');
}

/**
 * Decodes body bytes with the charset of the content type (UTF-8 by default). A multi-byte
 * character cut by the size cap is dropped instead of showing up as a replacement character.
 */
export function decodeBody(bytes: Uint8Array, contentType: string | undefined, truncated: boolean): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)"?/i.exec(contentType ?? '')?.[1] ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    decoder = new TextDecoder('utf-8');
  }
  return decoder.decode(bytes, { stream: truncated });
}
