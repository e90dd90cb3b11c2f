/** A random session id (`sess_` + two random 64-bit numbers in decimal, joined by `_`) from the platform's cryptographic random source. */
export const randomSessionId = (): string => 'sess_' + crypto.getRandomValues(new BigUint64Array(2)).join('_');
