/** A random session id (`sess_` + 32 hex digits) from the platform's cryptographic random source. */
export const randomSessionId = (): string =>
  `sess_${Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => (byte | 256).toString(16).slice(1)).join('')}`;
