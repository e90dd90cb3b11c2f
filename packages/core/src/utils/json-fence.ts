// A model's JSON reply often comes in a ```json fence. Both readers use indexOf and slice, not a
// regex: the obvious patterns (a lazy group between two \s* runs) take quadratic time on a reply of
// many spaces, and model output is hostile input.

/** The reply without the fence when the whole (trimmed) reply is one ``` or ```json block; else the trimmed reply. */
export function stripJsonFence(text: string): string {
  const trimmed = text.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return trimmed;
  return withoutJsonTag(trimmed.slice(3, -3)).trim();
}

/** The trimmed inside of the first ``` or ```json block anywhere in the reply, or undefined when there is none. */
export function findJsonFence(text: string): string | undefined {
  const open = text.indexOf('```');
  if (open < 0) return undefined;
  const start = open + 3 + (isJsonTag(text, open + 3) ? 4 : 0);
  const close = text.indexOf('```', start);
  return close < 0 ? undefined : text.slice(start, close).trim();
}

function withoutJsonTag(inner: string): string {
  return isJsonTag(inner, 0) ? inner.slice(4) : inner;
}

function isJsonTag(text: string, at: number): boolean {
  return text.slice(at, at + 4).toLowerCase() === 'json';
}
