/** A random session id (`sess_` + 32 hex digits) from the platform's cryptographic random source. */
export const randomSessionId = (): string => crypto.getRandomValues(new Uint8Array(16)).reduce((id, byte) => id + (byte | 256).toString(16).slice(1), 'sess_');
