/** Short random ids; `crypto.randomUUID` exists in every runtime we support (Node 20, browsers, workers). */
export function newId(prefix: string): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}
