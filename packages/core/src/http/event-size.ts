import type { AgentStreamEvent } from '@lousho/protocol';
import { leanRunDone } from '@lousho/store-kit';

/**
 * About how many bytes `value` takes as JSON, without building the JSON: strings count by length
 * (exact for ASCII), so a long text costs nothing to measure. Deeper than events ever go, a guess.
 */
export function approximateJsonSize(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string':
      return value.length + 2;
    case 'number':
      return 8;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      if (depth > 8) return 64;
      let size = 2;
      if (Array.isArray(value)) {
        for (const item of value) size += approximateJsonSize(item, depth + 1) + 1;
        return size;
      }
      for (const key in value) size += key.length + 4 + approximateJsonSize((value as Record<string, unknown>)[key], depth + 1);
      return size;
    }
    default:
      return 0;
  }
}

/** About how many bytes an event takes in an event stream (its JSON, plus the `id:` and `data:` framing). */
export function approximateEventSize(event: AgentStreamEvent): number {
  // The hot case, a delta: its text and a frame of about fixed size (v2 leaves the ids out).
  const { delta } = event as { delta?: unknown };
  if (typeof delta === 'string') return delta.length + 48;
  // Measured as sent: `run.done` without the reply text it carries in the process (a long reply's
  // end must not count as the reply again, or a reader just behind would overflow).
  return approximateJsonSize(leanRunDone(event) ?? event) + 32;
}
