import type { AgentStreamEvent } from '@lousho/protocol';
import { copyWithSharedShape } from '@lousho/protocol';
import { withheldBy, withheldReplyText } from '@lousho/protocol';
import type { SubagentRef } from '@lousho/protocol';

type DeltaEvent = Extract<AgentStreamEvent, { type: 'text.delta' | 'reasoning.delta' | 'tool.input.delta' }>;

/**
 * A logged delta that stands for the deltas `fromSeq..seq`; `pieceSizes` (never sent) says how
 * long each one was: one character per piece, its char code the piece's length (a string of
 * one-byte characters costs a byte per piece; an array of numbers eight), or, when a piece is
 * longer than 65,535 characters (and in logs written before), an array of lengths.
 */
type MergedDelta = DeltaEvent & { fromSeq: number; pieceSizes?: string | number[] };

/** The most a piece's length may be to be kept as one char code. */
const MAX_CODE = 0xffff;

function isDelta(event: AgentStreamEvent): event is DeltaEvent {
  return event.type === 'text.delta' || event.type === 'reasoning.delta' || event.type === 'tool.input.delta';
}

/** Two deltas that extend the same part, one right after the other. */
function continues(previous: DeltaEvent, next: DeltaEvent): boolean {
  if (previous.type !== next.type || previous.runId !== next.runId || next.seq !== previous.seq + 1) return false;
  // Parallel sub-agents interleave their deltas: each stretch is one sub-agent's (or the lead's).
  if (previous.subagent?.toolCallId !== next.subagent?.toolCallId) return false;
  if (next.type === 'tool.input.delta') return (previous as typeof next).toolCallId === next.toolCallId;
  return (previous as Exclude<DeltaEvent, { type: 'tool.input.delta' }>).step === next.step;
}

/**
 * The most text one merged delta holds (UTF-16 code units). Longer stretches become several merged
 * deltas, so a replay is sent in bounded pieces: a reader of a long reply never makes the server
 * build one frame the size of the whole reply.
 */
export const MAX_MERGED_DELTA_CHARS = 32 * 1024;

/** Appends the length of each piece `event` stands for to `sizes` (one piece: its own text's). */
function addPieces(sizes: number[], event: DeltaEvent): void {
  const pieces = (event as MergedDelta).pieceSizes;
  if (pieces === undefined) sizes.push(event.delta.length);
  else if (typeof pieces !== 'string') for (const size of pieces) sizes.push(size);
  else for (let i = 0; i < pieces.length; i++) sizes.push(pieces.charCodeAt(i));
}

/** Piece lengths as kept: a string of char codes when every one fits, else the array. */
function packPieces(sizes: number[]): string | number[] {
  for (const size of sizes) if (size > MAX_CODE) return sizes;
  // Built flat, a few thousand codes per call (`+=` per piece would leave a rope of one node each).
  const parts: string[] = [];
  for (let i = 0; i < sizes.length; i += 4096) parts.push(String.fromCharCode(...sizes.slice(i, i + 4096)));
  return parts.join('');
}

/** `run.done` as the log keeps it and the wire sends it: without `text`, which the deltas before it already hold (undefined for any other event, or one without text). */
export function leanRunDone(event: AgentStreamEvent): AgentStreamEvent | undefined {
  if (event.type !== 'run.done' || event.text === undefined) return undefined;
  const { text: _text, ...rest } = event;
  return rest;
}

/**
 * The leg with the reply an output guardrail blocked withheld: the text deltas of the run's last
 * step (the reply the guardrail read) say only `withheldReplyText`, the first of them in full and
 * the others empty (so their seqs, and a resume inside them, stay as they were). What a live client
 * shows once `run.done` arrives is then what a replay of the stored log shows: never the reply.
 */
function withholdBlockedReplies(events: readonly AgentStreamEvent[]): readonly AgentStreamEvent[] {
  let out: AgentStreamEvent[] | undefined;
  for (let end = events.length; end-- > 0; ) {
    const done = events[end]!;
    const blocked = blockedReplyAt(done);
    if (!blocked) continue;
    const reply: number[] = [];
    let step: number | undefined;
    for (let i = end; i-- > 0; ) {
      const event = events[i]!;
      if (event.runId !== done.runId) continue;
      if (!event.subagent && (event.type === 'run.start' || event.type === 'run.done')) break;
      if (!sameSpeaker(event.subagent, blocked.speaker)) continue;
      if (event.type !== 'text.delta' || (step ??= event.step) !== event.step) continue;
      reply.push(i);
    }
    // Walking back: the last index found is the reply's first delta. (A log withheld already stays as it is.)
    reply.forEach((i, k) => {
      const delta = k === reply.length - 1 ? withheldReplyText(blocked.guardrail) : '';
      if ((events[i] as { delta: string }).delta !== delta) (out ??= events.slice())[i] = copyWithSharedShape(events[i]!, { delta });
    });
  }
  return out ?? events;
}

/** Whose reply an output guardrail blocked: the lead's (`run.done`) or a sub-agent's (its delegate call's `tool.done` says so). */
function blockedReplyAt(event: AgentStreamEvent): { guardrail: string; speaker: SubagentRef | undefined } | undefined {
  if (event.type === 'run.done' && !event.subagent && event.guardrail?.stage === 'output') return { guardrail: event.guardrail.name, speaker: undefined };
  if (event.type !== 'tool.done') return undefined;
  const guardrail = withheldBy(event.result);
  return guardrail === undefined ? undefined : { guardrail, speaker: { name: '', toolCallId: event.toolCallId, depth: (event.subagent?.depth ?? 0) + 1 } };
}

/** An event of the lead (both undefined) or of the same sub-agent (its delegate call and depth). */
function sameSpeaker(a: SubagentRef | undefined, b: SubagentRef | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.toolCallId === b.toolCallId && a.depth === b.depth;
}

/**
 * A finished leg's events in the form kept for replay: each run of consecutive deltas of one part
 * becomes a single delta with their joined text, the seq of the last one and `fromSeq` of the
 * first (a run longer than `MAX_MERGED_DELTA_CHARS` becomes several); it also keeps the size of
 * each piece, so `replayAfter` can still resume exactly from a point inside it. `run.done` loses
 * its `text` (the reply is in the deltas before it; the wire leaves it out too). Reducing the
 * compacted log gives the same state as the full one.
 *
 * Why: a 500-delta reply kept as 500 events costs ~70 KB per idle session; merged, a few KB.
 * Returns the input array itself when there is nothing to change.
 */
export function compactEventLog(logged: readonly AgentStreamEvent[]): readonly AgentStreamEvent[] {
  const events = withholdBlockedReplies(logged);
  let out: AgentStreamEvent[] | undefined;
  let i = 0;
  while (i < events.length) {
    const first = events[i]!;
    let end = i + 1;
    if (isDelta(first)) {
      let chars = first.delta.length;
      while (end < events.length && isDelta(events[end]!) && continues(events[end - 1] as DeltaEvent, events[end] as DeltaEvent)) {
        chars += (events[end] as DeltaEvent).delta.length;
        if (chars > MAX_MERGED_DELTA_CHARS) break;
        end++;
      }
    }
    if (end - i < 2) {
      const lean = leanRunDone(first);
      if (lean) (out ??= events.slice(0, i) as AgentStreamEvent[]).push(lean);
      else out?.push(first);
      i = end;
      continue;
    }
    out ??= events.slice(0, i) as AgentStreamEvent[];
    // One join and one sizes array per merged run: repeated `+` would leave a rope of 500 nodes.
    const texts: string[] = [];
    const sizes: number[] = [];
    for (let k = i; k < end; k++) {
      const delta = events[k] as DeltaEvent;
      texts.push(delta.delta);
      addPieces(sizes, delta);
    }
    const last = events[end - 1] as DeltaEvent;
    const fromSeq = (first as Partial<MergedDelta>).fromSeq ?? first.seq;
    out.push(copyWithSharedShape(last, { delta: texts.join(''), fromSeq, pieceSizes: packPieces(sizes) }) as MergedDelta);
    i = end;
  }
  return out ?? events;
}

/**
 * The events of an ordered log (or the part of it with `seq > afterSeq`, plus the one merged
 * delta that may straddle `afterSeq`) as they are sent for a resume after `afterSeq`: a merged
 * delta that covers `afterSeq` gives only the text of its later pieces, and no merged delta
 * carries its piece sizes out.
 */
export function replayAfter(events: readonly AgentStreamEvent[], afterSeq: number): AgentStreamEvent[] {
  const out: AgentStreamEvent[] = [];
  for (const event of events) {
    if (event.seq <= afterSeq) continue;
    const merged = event as Partial<MergedDelta>;
    if (merged.pieceSizes === undefined) {
      out.push(event);
      continue;
    }
    const { pieceSizes, ...rest } = merged as MergedDelta & { pieceSizes: string | number[] };
    const from = merged.fromSeq!;
    if (from > afterSeq) {
      out.push(rest as AgentStreamEvent);
      continue;
    }
    // Pieces from..afterSeq were already seen: skip their text.
    let skip = 0;
    for (let i = 0; i <= afterSeq - from; i++) skip += typeof pieceSizes === 'string' ? pieceSizes.charCodeAt(i) : pieceSizes[i]!;
    out.push(copyWithSharedShape(rest, { delta: rest.delta.slice(skip), fromSeq: afterSeq + 1 }) as AgentStreamEvent);
  }
  return out;
}
