/** How the SQL stores keep values: as JSON text. */

/** JSON text of a value; a value that is not JSON (a cycle, a bigint) is stored as an explanation. */
export function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch {
    return JSON.stringify({ error: 'UnserializableResult', message: 'The value is not JSON-serializable and was not stored.' });
  }
}

export function fromJson<T>(text: string | null | undefined): T | undefined {
  return text == null ? undefined : (JSON.parse(text) as T);
}
