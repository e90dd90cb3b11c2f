/** Byte helpers shared by the crypto utilities and the HTTP handler: UTF-8 and base64url without Node's Buffer. */

const encoder = new TextEncoder();
/** Shared: each call decodes whole bytes (no `stream`), so it keeps no state between calls; one per call showed in a server's profile. */
const strictDecoder = new TextDecoder('utf-8', { fatal: true });

/** The UTF-8 bytes of `text`. */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** UTF-8 bytes as text; throws a `TypeError` on bytes that are not UTF-8. */
export function fromUtf8(bytes: Uint8Array): string {
  return strictDecoder.decode(bytes);
}

/** The bytes as lowercase hexadecimal, two digits a byte. */
export function toHex(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0');
  return out;
}

/** Base64url without padding (URL- and file-name-safe). */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64 or base64url (padding optional); undefined when the text is not base64. */
export function fromBase64(text: string): Uint8Array | undefined {
  const normal = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normal) || normal.replace(/=+$/, '').length % 4 === 1) return undefined;
  const padded = normal.replace(/=+$/, '').padEnd(Math.ceil(normal.replace(/=+$/, '').length / 4) * 4, '=');
  try {
    const binary = atob(padded);
    const out = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
    return out;
  } catch {
    return undefined;
  }
}

/** `chunks` (`size` bytes in all) as one array. */
export function concatBytes(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}
