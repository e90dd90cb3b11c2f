import type { AgentStreamEvent } from '../events/types.js';

type DeltaEvent = Extract<AgentStreamEvent, { type: 'text.delta' | 'reasoning.delta' | 'tool.input.delta' }>;

function isDelta(event: AgentStreamEvent): event is DeltaEvent {
  return event.type === 'text.delta' || event.type === 'reasoning.delta' || event.type === 'tool.input.delta';
}

/** Two deltas that extend the same part, one right after the other. */
function continues(previous: DeltaEvent, next: DeltaEvent): boolean {
  if (previous.type !== next.type || previous.runId !== next.runId) return false;
  if (next.type === 'tool.input.delta') return (previous as typeof next).toolCallId === next.toolCallId;
  return (previous as Exclude<DeltaEvent, { type: 'tool.input.delta' }>).step === next.step;
}

/**
 * A finished leg's events in the form kept for replay: each run of consecutive deltas of one part
 * becomes a single delta carrying their joined text and the seq of the last one. Reducing the
 * compacted log gives the same state as the full one, and a resume point past its end still
 * continues exactly. A resume point inside a merged run has no event at `afterSeq + 1`, so it is
 * refused as a gap (`LOUSHO_STREAM_GAP`), and the client reads the session again instead.
 *
 * Why: a 500-delta reply kept whole costs ~70 KB per idle session; compacted, a few hundred bytes.
 * Returns the input array itself when there is nothing to merge.
 */
export function compactEventLog(events: readonly AgentStreamEvent[]): readonly AgentStreamEvent[] {
  let out: AgentStreamEvent[] | undefined;
  let pieces: string[] = [];
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    const previous = i > 0 ? events[i - 1]! : undefined;
    const merges = previous !== undefined && isDelta(event) && isDelta(previous) && continues(previous, event);
    if (!merges) {
      if (out) flush(out, pieces);
      pieces = isDelta(event) ? [event.delta] : [];
      if (out) out.push(event);
      continue;
    }
    if (!out) out = events.slice(0, i) as AgentStreamEvent[];
    pieces.push((event as DeltaEvent).delta);
    // The merged event takes the place (and seq) of the last delta of its run.
    out[out.length - 1] = event;
  }
  if (!out) return events;
  flush(out, pieces);
  return out;
}

/** Gives the last event of `out` (a delta ending a merged run) the joined text. */
function flush(out: AgentStreamEvent[], pieces: string[]): void {
  if (pieces.length < 2) return;
  const last = out[out.length - 1] as DeltaEvent;
  out[out.length - 1] = { ...last, delta: pieces.join('') };
}
