import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { createEventStreamDecoder } from '../../src/protocol/decoder.js';
import { CALL_SCOPED, createSseEventEncoder, encodeSseVersion, STEP_SCOPED } from '../../src/protocol/sse.js';
import { arbEvents, arbRunEvents, arbUnsequencedEvent, wireForm } from './arbitraries.js';

type Type = AgentStreamEvent['type'];

/**
 * Every event type, with the field besides `runId` and `sessionId` that lousho.v2 says only when
 * it changes on it (docs/protocol.md): `step`, `toolCallId`, or nothing. A new event type does not
 * compile here until someone decides (a type not in `STEP_SCOPED` or `CALL_SCOPED` always says its
 * fields, which is what a new type rides on v2 with).
 */
const SAID_ONCE: Record<Type, 'step' | 'toolCallId' | null> = {
  'run.start': null,
  'user.message': null,
  'step.start': 'step',
  'text.delta': 'step',
  'reasoning.delta': 'step',
  'tool.input.start': 'toolCallId',
  'tool.input.delta': 'toolCallId',
  'tool.call': 'toolCallId',
  'tool.progress': 'toolCallId',
  'tool.done': 'toolCallId',
  'tool.error': 'toolCallId',
  'approval.requested': null,
  'approval.resolved': null,
  'compaction.start': null,
  'compaction.done': null,
  'step.done': 'step',
  'run.done': null,
  error: null,
  'run.interrupted': null,
  'flow.node.start': null,
  'flow.node.event': null,
  'flow.node.done': null,
  'flow.node.error': null,
  'flow.branch': null,
  'message.queued': null,
  'message.unqueued': null,
};
const ALL_TYPES = Object.keys(SAID_ONCE) as Type[];
const typesSaying = (field: 'step' | 'toolCallId'): Type[] => ALL_TYPES.filter((type) => SAID_ONCE[type] === field).sort();

/** The frames of `events` written by one encoder, each as the JSON object it sends (and its `id`). */
function frames(events: readonly AgentStreamEvent[]): { id: string | undefined; json: Record<string, unknown> }[] {
  const encode = createSseEventEncoder();
  return events.map((event) => {
    const frame = encode(event);
    const id = /^id: (\d+)\n/.exec(frame)?.[1];
    return { id, json: JSON.parse(frame.slice(frame.indexOf('data: ') + 6, -2)) as Record<string, unknown> };
  });
}

/**
 * What a frame of `event` holds, written from the protocol's description rather than from the
 * encoder: every field the event has, but `seq` (the frame's `id`), `run.done`'s `text`, and the
 * fields said once when they are what the stream last said: `runId`, `sessionId`, the `step` of a
 * step-scoped type (last said by one of those types), the `toolCallId` of a tool event (last said
 * by a tool event of the same run).
 */
function expectedFrames(events: readonly AgentStreamEvent[]): Record<string, unknown>[] {
  const said: Record<string, unknown> = {};
  return events.map((event) => {
    const json: Record<string, unknown> = {};
    if (event.runId !== said.runId) said.toolCallId = undefined;
    const scoped = SAID_ONCE[event.type];
    for (const [key, value] of Object.entries(event)) {
      if (value === undefined || key === 'seq' || (key === 'text' && event.type === 'run.done')) continue;
      if (key === 'runId' || key === 'sessionId' || key === scoped) {
        if (said[key] === value) continue;
        said[key] = value;
      }
      json[key] = value;
    }
    return json;
  });
}

describe('lousho.v2: the fields a stream says once, by event type', () => {
  it('STEP_SCOPED and CALL_SCOPED list exactly the types the protocol says (every event type is classified above)', () => {
    expect([...STEP_SCOPED].sort()).toEqual(typesSaying('step'));
    expect([...CALL_SCOPED].sort()).toEqual(typesSaying('toolCallId'));
  });

  it('the event arbitraries the protocol properties use make every event type', () => {
    const made = new Set(fc.sample(arbUnsequencedEvent, { numRuns: 3000, seed: 46 }).map((event) => event.type));
    expect([...made].sort()).toEqual([...ALL_TYPES].sort());
  });

  it('each frame leaves out exactly what the stream already said, and the decoder restores it (every type, any order)', () => {
    fc.assert(
      fc.property(fc.oneof(arbEvents, arbRunEvents), (events) => {
        const written = frames(events);
        expect(written.map((frame) => frame.json)).toEqual(expectedFrames(events));
        expect(written.map((frame) => frame.id)).toEqual(events.map((event) => (typeof event.seq === 'number' ? String(event.seq) : undefined)));
        const read: AgentStreamEvent[] = [];
        const decoder = createEventStreamDecoder((event) => read.push(event));
        const encode = createSseEventEncoder();
        decoder.push(encodeSseVersion() + events.map(encode).join(''));
        decoder.end();
        expect(read).toEqual(wireForm(events));
      }),
      { numRuns: 300 },
    );
  });

  it('a type outside the lists always says its step and its call, and is no step or call to restore from', () => {
    // `compaction.done` has a step and `approval.resolved` a call id, both never left out; the
    // `step.done` and `tool.done` after them take theirs from the last scoped event, not from them.
    const base = { runId: 'run_1', sessionId: 'sess_1' };
    const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 1, completionTokens: 1 };
    const events: AgentStreamEvent[] = [
      { ...base, seq: 1, type: 'step.start', step: 1 },
      { ...base, seq: 2, type: 'tool.input.start', step: 1, toolCallId: 'call_1', toolName: 't', displayName: 'T' },
      { ...base, seq: 3, type: 'compaction.done', step: 2, tokensBefore: 2, tokensAfter: 1, pruned: 1, summarized: 0 },
      { ...base, seq: 4, type: 'approval.resolved', approvalId: 'a', toolCallId: 'call_2', approved: true },
      { ...base, seq: 5, type: 'step.done', step: 1, finishReason: 'tool_calls', usage, stepUsage: { step: 1, model: 'm', usage, estimated: false } },
      { ...base, seq: 6, type: 'tool.done', toolCallId: 'call_1', toolName: 't', result: 1 },
    ];
    const written = frames(events).map((frame) => frame.json);
    expect(written[2]).toHaveProperty('step', 2);
    expect(written[3]).toHaveProperty('toolCallId', 'call_2');
    expect(written[4]).not.toHaveProperty('step');
    expect(written[5]).not.toHaveProperty('toolCallId');
    const read: AgentStreamEvent[] = [];
    const decoder = createEventStreamDecoder((event) => read.push(event));
    decoder.push(encodeSseVersion() + events.map(createSseEventEncoder()).join(''));
    expect(read).toEqual(events);
  });
});
