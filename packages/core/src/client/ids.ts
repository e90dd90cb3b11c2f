/** A random session id (`sess_` + 32 hex digits) from the platform's cryptographic random source. */
export function randomSessionId(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return `sess_${hex}`;
}
