/**
 * A shallow copy of `source` with `extra` set after its own fields, built key by key from an empty
 * object. For objects a session keeps for good (its log's merged deltas, its transcript's
 * messages): V8 gave many of those built with a spread (`{ ...source, ...extra }`) a hidden class
 * of their own, about 450 B each; built key by key they share one hidden class per shape.
 */
export function copyWithSharedShape<T extends object>(source: T, extra?: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const key in source) out[key] = (source as Record<string, unknown>)[key];
  if (extra) for (const key in extra) out[key] = extra[key];
  return out as T;
}
