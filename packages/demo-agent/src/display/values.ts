/** How the demos show tool values and question arguments: the same rules in React, Vue and Svelte. */

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

/** JSON text of a value, or its string form when it is not JSON. */
export function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return String(value);
  }
}

/** A list of `{ title, url }` (like the research sources), shown as links. */
export function linkList(data: unknown): { title: string; url: string; href: string | undefined }[] | undefined {
  if (!Array.isArray(data) || !data.every((item) => typeof item === 'object' && item !== null && 'url' in item)) return undefined;
  return (data as { title?: unknown; url: unknown }[]).map((item) => {
    const url = typeof item.url === 'string' ? item.url : '';
    return { url, title: typeof item.title === 'string' ? item.title : url, href: safeHref(url) };
  });
}

/** `question` of a question tool's arguments. */
export function questionOf(args: unknown): string | undefined {
  const question = (args as { question?: unknown } | null | undefined)?.question;
  return typeof question === 'string' ? question : undefined;
}

/** `options` of a question tool's arguments (suggested answers). */
export function optionsOf(args: unknown): string[] {
  const options = (args as { options?: unknown } | null | undefined)?.options;
  return Array.isArray(options) ? options.filter((option): option is string => typeof option === 'string') : [];
}
