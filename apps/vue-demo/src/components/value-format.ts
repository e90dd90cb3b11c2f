/** `temperatureC` → `temperature C`, `message_id` → `message id`: easier to scan (unit letters keep their case). */
export function humanize(key: string): string {
  return key
    .replace(/[_-]+/g, ' ')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(' ')
    .map((word) => (word.length > 1 ? word.toLowerCase() : word))
    .join(' ');
}

/** The URL when it is a plain http(s) link, else undefined (no `javascript:`, no `data:`). */
export function safeHref(text: string): string | undefined {
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}
