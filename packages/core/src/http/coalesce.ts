import type { AgentStreamEvent } from '@lousho/protocol';
import { copyWithSharedShape } from '@lousho/protocol';

type DeltaEvent = Extract<AgentStreamEvent, { type: 'text.delta' | 'reasoning.delta' | 'tool.input.delta' }>;

function isDelta(event: AgentStreamEvent): event is DeltaEvent {
  return event.type === 'text.delta' || event.type === 'reasoning.delta' || event.type === 'tool.input.delta';
}

/** `next` extends the same part as `previous`, right after it (a merged `next` starts at its `fromSeq`). */
function extendsPart(previous: DeltaEvent, next: DeltaEvent): boolean {
  if (previous.type !== next.type || previous.runId !== next.runId) return false;
  if (((next as { fromSeq?: number }).fromSeq ?? next.seq) !== previous.seq + 1) return false;
  // Parallel sub-agents interleave their deltas: each stretch is one sub-agent's (or the lead's).
  if (previous.subagent?.toolCallId !== next.subagent?.toolCallId) return false;
  if (next.type === 'tool.input.delta') return (previous as typeof next).toolCallId === next.toolCallId;
  return (previous as Exclude<DeltaEvent, { type: 'tool.input.delta' }>).step === next.step;
}

/**
 * A batch of events about to be written to one connection, with each stretch of consecutive
 * deltas of one part merged into one delta: the joined text, the `seq` of the last one and
 * `fromSeq` of the first (the form a replay of a compacted log already has, so every client reads
 * it). Only a reader that is behind gets batches of more than one event, so one that keeps up gets
 * every delta as it came, at once. Returns the batch itself when nothing merges.
 */
export function coalesceDeltas(batch: readonly AgentStreamEvent[]): readonly AgentStreamEvent[] {
  let out: AgentStreamEvent[] | undefined;
  let i = 0;
  while (i < batch.length) {
    const first = batch[i]!;
    let end = i + 1;
    if (isDelta(first)) while (end < batch.length && isDelta(batch[end]!) && extendsPart(batch[end - 1] as DeltaEvent, batch[end] as DeltaEvent)) end++;
    if (end - i < 2) {
      out?.push(first);
      i = end;
      continue;
    }
    out ??= batch.slice(0, i);
    const texts: string[] = [];
    for (let k = i; k < end; k++) texts.push((batch[k] as DeltaEvent).delta);
    const last = batch[end - 1]!;
    // (Key by key, not a spread: see copyWithSharedShape.)
    out.push(copyWithSharedShape(last, { delta: texts.join(''), fromSeq: (first as { fromSeq?: number }).fromSeq ?? first.seq }));
    i = end;
  }
  return out ?? batch;
}
