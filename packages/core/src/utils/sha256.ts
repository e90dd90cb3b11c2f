import { toHex, utf8 } from '@lousho/protocol';

/**
 * The SHA-256 digest of `data` (text is hashed as UTF-8), as lowercase hex. Web Crypto, so it runs
 * in browsers, Node 20+, Deno, Bun and workers alike.
 */
export async function sha256(data: string | Uint8Array | ArrayBuffer): Promise<string> {
  const bytes = typeof data === 'string' ? utf8(data) : data;
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as BufferSource)));
}
