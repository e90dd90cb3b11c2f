/** Headers as Node gives them (`req.headers`), a plain record, or a Fetch `Headers`. */
export type SlackHeaders = Readonly<Record<string, string | string[] | undefined>> | Headers;

/** A header's value, whatever the letter case of its name. */
export function headerValue(headers: SlackHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const wanted = name.toLowerCase();
  for (const key of Object.keys(record)) {
    if (key.toLowerCase() !== wanted) continue;
    const value = record[key];
    return Array.isArray(value) ? value[0] : value;
  }
  return undefined;
}
