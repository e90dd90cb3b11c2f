import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { AgentStreamEvent } from '@lousho/protocol';
import { compactEventLog, replayAfter } from '../src/index.js';
import { MAX_MERGED_DELTA_CHARS } from '../src/compact-log.js';
import { reduceAgentEvents, type AgentUIState } from '@lousho/protocol';

const run = 'run_1';
const arbitraryEvent = fc.oneof(
  fc.record({ type: fc.constant('text.delta' as const), step: fc.integer({ min: 1, max: 2 }), delta: fc.string({ maxLength: 4 }) }),
  fc.record({ type: fc.constant('reasoning.delta' as const), step: fc.integer({ min: 1, max: 2 }), delta: fc.string({ maxLength: 4 }) }),
  fc.record({ type: fc.constant('step.start' as const), step: fc.integer({ min: 1, max: 2 }) }),
  fc.record({
    type: fc.constant('tool.input.start' as const),
    step: fc.constant(1),
    toolCallId: fc.constantFrom('c1', 'c2'),
    toolName: fc.constant('t'),
    displayName: fc.constant('T'),
  }),
  fc.record({ type: fc.constant('tool.input.delta' as const), toolCallId: fc.constantFrom('c1', 'c2'), delta: fc.string({ maxLength: 4 }) }),
);

function numbered(events: readonly object[]): AgentStreamEvent[] {
  return [{ type: 'run.start', model: 'm' }, ...events].map((event, i) => ({ ...event, seq: i + 1, runId: run }) as AgentStreamEvent);
}

function reduce(events: readonly AgentStreamEvent[]): AgentUIState | undefined {
  let state: AgentUIState | undefined;
  for (const event of events) state = reduceAgentEvents(state, event);
  return state;
}

describe('compactEventLog', () => {
  it('reduces to the same state as the full log, for any sequence of deltas and other events', () => {
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { maxLength: 60 }), (raw) => {
        const events = numbered(raw);
        const compacted = compactEventLog(events);
        expect(reduce(compacted)).toEqual(reduce(events));
        // Seqs stay increasing and end with the same last event seq.
        const seqs = compacted.map((e) => e.seq);
        expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
        expect(seqs.at(-1)).toBe(events.at(-1)!.seq);
        // Nothing left to merge.
        expect(compactEventLog(compacted)).toBe(compacted);
      }),
    );
  });

  it('resumes exactly from any point: replaying the compacted log after seq k gives the state of the full log', () => {
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { maxLength: 40 }), fc.nat(), (raw, cut) => {
        const events = numbered(raw);
        const k = cut % (events.length + 1);
        const compacted = compactEventLog(events);
        const head = reduce(events.slice(0, k));
        let resumed = head;
        for (const event of replayAfter(compacted, k)) resumed = reduceAgentEvents(resumed, event);
        expect(resumed).toEqual(reduce(events));
        for (const event of replayAfter(compacted, k)) expect(event).not.toHaveProperty('pieceSizes');
      }),
    );
  });

  it('withholds a reply an output guardrail blocked: the compacted log reduces (from any resume point) to the live state, without the reply', () => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, modelCalls: 1, estimated: false, byModel: {} };
    const guardrail = { name: 'secret-scan', stage: 'output' as const, reason: 'no' };
    fc.assert(
      fc.property(fc.array(arbitraryEvent, { maxLength: 30 }), fc.array(fc.constantFrom('\u00a7a', 'b\u00a7', '\u00a7'), { minLength: 1, maxLength: 8 }), fc.nat(), (raw, reply, cut) => {
        const events = numbered([
          ...raw,
          { type: 'step.start', step: 3 },
          ...reply.map((delta) => ({ type: 'text.delta', step: 3, delta })),
          { type: 'run.done', finishReason: 'guardrail', text: '', steps: 3, usage, guardrail },
        ]);
        const live = reduce(events)!;
        const compacted = compactEventLog(events);
        expect(JSON.stringify(compacted)).not.toContain('\u00a7');
        expect(JSON.stringify(live.messages)).not.toContain('\u00a7');
        expect(live.messages.at(-1)!.parts.at(-1)).toEqual({ type: 'text', text: "[This reply was withheld by the guardrail 'secret-scan'.]" });
        expect(reduce(compacted)).toEqual(live);
        const k = cut % (events.length + 1);
        let resumed = reduce(events.slice(0, k));
        for (const event of replayAfter(compacted, k)) resumed = reduceAgentEvents(resumed, event);
        expect(resumed).toEqual(live);
        expect(compactEventLog(compacted)).toBe(compacted);
      }),
    );
  });

  it("withholds a nested sub-agent's blocked reply (its delegate call's result says so), and only that one", () => {
    const withheld = "[This reply was withheld by the guardrail 'secret-scan'.]";
    const outer = { name: 'lead-helper', depth: 1, toolCallId: 'call_a' };
    const inner = { name: 'researcher', depth: 2, toolCallId: 'call_b' };
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, modelCalls: 1, estimated: false, byModel: {} };
    const events = numbered([
      { type: 'step.start', step: 1 },
      { type: 'tool.call', step: 1, toolCallId: 'call_a', toolName: 'task', displayName: 'Delegate', args: {} },
      { type: 'step.start', step: 1, subagent: outer },
      { type: 'tool.call', step: 1, toolCallId: 'call_b', toolName: 'task', displayName: 'Delegate', args: {}, subagent: outer },
      { type: 'step.start', step: 1, subagent: inner },
      { type: 'text.delta', step: 1, delta: 'the key is ', subagent: inner },
      { type: 'text.delta', step: 1, delta: 'hello', subagent: outer },
      { type: 'text.delta', step: 1, delta: '\u00a7secret', subagent: inner },
      { type: 'tool.done', toolCallId: 'call_b', toolName: 'task', result: withheld, subagent: outer },
      { type: 'text.delta', step: 2, delta: 'kept', subagent: outer },
      { type: 'tool.done', toolCallId: 'call_a', toolName: 'task', result: 'kept' },
      { type: 'run.done', finishReason: 'stop', text: '', steps: 2, usage },
    ]);
    const live = reduce(events)!;
    expect(JSON.stringify(live.messages)).not.toContain('\u00a7');
    const compacted = compactEventLog(events);
    expect(JSON.stringify(compacted)).not.toContain('\u00a7');
    expect(JSON.stringify(compacted)).toContain('hello');
    expect(JSON.stringify(compacted)).toContain('kept');
    expect(reduce(compacted)).toEqual(live);
    for (let k = 0; k <= events.length; k++) {
      let resumed = reduce(events.slice(0, k));
      for (const event of replayAfter(compacted, k)) resumed = reduceAgentEvents(resumed, event);
      expect(resumed).toEqual(live);
    }
  });

  it('merges a 500-delta reply into one event and leaves the input alone', () => {
    const events = numbered(Array.from({ length: 500 }, (_, i) => ({ type: 'text.delta', step: 1, delta: `w${i} ` })));
    const compacted = compactEventLog(events);
    expect(compacted).toHaveLength(2);
    expect(compacted[1]).toMatchObject({ seq: 501, fromSeq: 2, delta: events.slice(1).map((e) => (e as { delta: string }).delta).join('') });
    expect(events).toHaveLength(501);
  });

  it('keeps a long reply in merged deltas of at most MAX_MERGED_DELTA_CHARS, resumable from any point', () => {
    // 200 KB in pieces of 1,000 characters (the last one shorter): a replay is sent in bounded pieces.
    const pieces = Array.from({ length: 201 }, (_, i) => (i === 200 ? 'end' : String(i % 10).repeat(1000)));
    const events = numbered(pieces.map((delta) => ({ type: 'text.delta', step: 1, delta })));
    const compacted = compactEventLog(events);
    const merged = compacted.slice(1) as (AgentStreamEvent & { delta: string; fromSeq: number })[];
    expect(merged.length).toBe(Math.ceil(200_003 / (32 * 1000)));
    for (const event of merged) expect(event.delta.length).toBeLessThanOrEqual(MAX_MERGED_DELTA_CHARS);
    // Each continues the previous one: no seq is lost between them.
    merged.forEach((event, i) => expect(event.fromSeq).toBe(i === 0 ? 2 : merged[i - 1]!.seq + 1));
    expect(merged.map((e) => e.delta).join('')).toBe(pieces.join(''));
    for (const k of [0, 1, 2, 33, 34, 100, 201, 202]) {
      expect(reduce([...events.slice(0, k), ...replayAfter(compacted, k)])).toEqual(reduce(events));
    }
    // Compacting again merges nothing more.
    expect(compactEventLog(compacted)).toBe(compacted);
  });

  it('keeps piece sizes as one char code each (older logs kept arrays), resumable from any point either way', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 2, maxLength: 30 }), fc.boolean(), fc.nat(), (sizes, huge, cut) => {
        const pieces = sizes.map((size, i) => String.fromCharCode(97 + (i % 26)).repeat(huge && i === 1 ? 70_000 : size));
        const events = numbered(pieces.map((delta) => ({ type: 'text.delta', step: 1, delta })));
        const compacted = compactEventLog(events);
        const kept = (compacted as (AgentStreamEvent & { pieceSizes?: unknown })[]).flatMap((event) => (event.pieceSizes === undefined ? [] : [event.pieceSizes]));
        // (A piece too long for a char code is longer than a merged delta may be: never merged.)
        for (const packed of kept) expect(typeof packed).toBe('string');
        // A log written with arrays of sizes (before) resumes the same as one with char codes.
        const older = compacted.map((event) => {
          const packed = (event as { pieceSizes?: unknown }).pieceSizes;
          return typeof packed === 'string' ? { ...event, pieceSizes: Array.from(packed, (c) => c.charCodeAt(0)) } : event;
        }) as AgentStreamEvent[];
        const k = cut % (events.length + 1);
        for (const log of [compacted, older]) expect(reduce([...events.slice(0, k), ...replayAfter(log, k)])).toEqual(reduce(events));
      }),
    );
  });

  it('drops the reply text of run.done (the deltas hold it) and changes nothing else', () => {
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 1, completionTokens: 1 };
    const events = numbered([{ type: 'text.delta', step: 1, delta: 'Hi' }, { type: 'run.done', finishReason: 'stop', usage, text: 'Hi', steps: 1 }]);
    const compacted = compactEventLog(events);
    expect(compacted).not.toBe(events);
    expect(compacted[2]).toEqual({ type: 'run.done', finishReason: 'stop', usage, steps: 1, seq: 3, runId: run });
    expect(events[2]).toHaveProperty('text', 'Hi');
    expect(reduce(compacted)).toEqual(reduce(events));
    expect(compactEventLog(compacted)).toBe(compacted);
  });

  it('returns the same array when nothing merges', () => {
    const events = numbered([{ type: 'text.delta', step: 1, delta: 'a' }, { type: 'step.start', step: 2 }, { type: 'text.delta', step: 2, delta: 'b' }]);
    expect(compactEventLog(events)).toBe(events);
  });
});
