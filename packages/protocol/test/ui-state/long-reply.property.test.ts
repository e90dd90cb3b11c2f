import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent, UnsequencedStreamEvent } from '../../src/contracts/events.js';
import { EAGER_PARTS_LIMIT } from '../../src/ui-state/message-ops.js';
import { LIST_WINDOW } from '../../src/ui-state/persistent-list.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState, type UIPart, type UIToolPart } from '../../src/ui-state/index.js';
import { numbered, reduceAll, usage } from './helpers.js';

// Long, tool-heavy replies: many parts in one assistant message (past the list's window and the
// eager limit, where parts are kept in a persistent list and shown lazily), parallel calls whose
// results arrive in any order, and call ids that come back in later steps.

const arbStep = fc.record({
  text: fc.array(fc.constantFrom('a', 'b ', 'ç', '😀'), { maxLength: 3 }),
  // Ids from a pool larger than the window, so a step may reuse a call of an earlier step.
  calls: fc.uniqueArray(fc.record({ id: fc.integer({ min: 0, max: 40 }).map((n) => `call_${n}`), args: fc.nat(99), outcome: fc.constantFrom('done' as const, 'error' as const), progress: fc.boolean() }), {
    minLength: 1,
    maxLength: 14,
    selector: (call) => call.id,
  }),
  order: fc.array(fc.nat(), { maxLength: 14 }),
});

/** A run of steps: each streams text, starts its calls, then settles them in a shuffled order. */
const arbLongRun = fc.array(arbStep, { minLength: 1, maxLength: 6 }).map((steps) => {
  const events: UnsequencedStreamEvent[] = [{ type: 'run.start', model: 'm' }, { type: 'user.message', message: { role: 'user', content: 'go' } }];
  steps.forEach(({ text, calls, order }, s) => {
    const step = s + 1;
    events.push({ type: 'step.start', step });
    for (const delta of text) events.push({ type: 'text.delta', step, delta });
    for (const call of calls) {
      events.push({ type: 'tool.input.start', step, toolCallId: call.id, toolName: 'search', displayName: 'Search' });
      events.push({ type: 'tool.input.delta', toolCallId: call.id, delta: `{"n":${call.args}` });
      events.push({ type: 'tool.input.delta', toolCallId: call.id, delta: '}' });
      events.push({ type: 'tool.call', step, toolCallId: call.id, toolName: 'search', displayName: 'Search', args: { n: call.args } });
    }
    const settled = [...calls];
    order.forEach((pick, i) => {
      const j = pick % settled.length;
      [settled[i % settled.length], settled[j]] = [settled[j]!, settled[i % settled.length]!];
    });
    for (const call of settled) {
      if (call.progress) events.push({ type: 'tool.progress', toolCallId: call.id, toolName: 'search', progress: { at: call.args } });
      events.push(
        call.outcome === 'done'
          ? { type: 'tool.done', toolCallId: call.id, toolName: 'search', result: { n: call.args, step } }
          : { type: 'tool.error', toolCallId: call.id, toolName: 'search', error: { error: 'ToolExecutionError', toolName: 'search', message: `failed ${step}`, kind: 'execution' } },
      );
    }
    events.push({ type: 'step.done', step, finishReason: 'tool_calls', usage: usage(step, step), stepUsage: { step, model: 'm', usage: usage(1, 1), estimated: false } });
  });
  events.push({ type: 'run.done', finishReason: 'stop', usage: usage(1, 1), text: '', steps: steps.length });
  return { events: numbered(events), steps };
});

function states(events: readonly AgentStreamEvent[]): AgentUIState[] {
  const out: AgentUIState[] = [initialAgentUIState()];
  for (const event of events) out.push(reduceAgentEvents(out[out.length - 1], event));
  return out;
}

const toolPartsOf = (state: AgentUIState): UIToolPart[] => state.messages.flatMap((m) => m.parts.filter((p): p is UIToolPart => p.type === 'tool'));

describe('reduceAgentEvents on long tool-heavy replies (properties)', () => {
  it('each call has a part of its own, in the order the calls started, holding what its own events said', () => {
    fc.assert(
      fc.property(arbLongRun, ({ events, steps }) => {
        const state = reduceAll(events);
        // A call id that comes back in a later step is a new call (ids are unique only within one
        // model response): it gets a part of its own, and the earlier call's part keeps its result.
        const expected = steps.flatMap(({ calls }, s) => calls.map((call) => ({ step: s + 1, call })));
        const parts = toolPartsOf(state);
        expect(parts.map((p) => p.toolCallId)).toEqual(expected.map(({ call }) => call.id));
        parts.forEach((part, i) => {
          const { step, call } = expected[i]!;
          expect(part.args).toEqual({ n: call.args });
          expect(part.argsText).toBe(`{"n":${call.args}}`);
          if (call.outcome === 'done') expect(part).toMatchObject({ state: 'done', result: { n: call.args, step } });
          else expect(part).toMatchObject({ state: 'error', error: { message: `failed ${step}` } });
          if (call.progress) expect(part.progress).toEqual({ at: call.args });
          else expect(part.progress).toBeUndefined();
        });
        expect(state.messages).toHaveLength(2);
      }),
      { numRuns: 150 },
    );
  });

  it('every event touches at most one part of one message; every other part and message keeps its identity', () => {
    fc.assert(
      fc.property(arbLongRun, ({ events }) => {
        const all = states(events);
        events.forEach((event, i) => {
          const before = all[i]!;
          const after = all[i + 1]!;
          for (let m = 0; m < Math.min(before.messages.length, after.messages.length) - 1; m++) expect(after.messages[m]).toBe(before.messages[m]);
          const last = before.messages.length - 1;
          if (last < 0 || after.messages.length !== before.messages.length || after.messages[last] === before.messages[last]) return;
          const was: readonly UIPart[] = before.messages[last]!.parts;
          const now: readonly UIPart[] = after.messages[last]!.parts;
          let touched = now.length - was.length;
          for (let p = 0; p < was.length; p++) if (now[p] !== was[p]) touched++;
          expect(touched).toBeLessThanOrEqual(1);
        });
      }),
      { numRuns: 100 },
    );
  });

  it('is pure: no earlier state changes, also when a second branch is reduced from the middle', () => {
    fc.assert(
      fc.property(arbLongRun, fc.nat(), ({ events }, cutSeed) => {
        const all = states(events);
        const frozen = all.map((state) => JSON.stringify(state));
        const middle = cutSeed % all.length;
        const branch = reduceAll(events.slice(middle), all[middle]);
        expect(all.map((state) => JSON.stringify(state))).toEqual(frozen);
        expect(branch).toEqual(all[all.length - 1]);
      }),
      { numRuns: 100 },
    );
  });

  it('continues from a state that went through JSON at any point (a reload mid-reply)', () => {
    fc.assert(
      fc.property(arbLongRun, fc.nat(), ({ events }, cutSeed) => {
        const cut = cutSeed % (events.length + 1);
        // Right after a `step.start` nothing in the state shows that a step began, so JSON loses it
        // (docs/events.md); the server never serves a state there (test/client/session-view.test.ts).
        fc.pre(events[cut - 1]?.type !== 'step.start');
        const restored = JSON.parse(JSON.stringify(reduceAll(events.slice(0, cut)))) as AgentUIState;
        expect(reduceAll(events.slice(cut), restored)).toEqual(reduceAll(events));
      }),
      { numRuns: 150 },
    );
  });
});

describe('reduceAgentEvents on a long tool-heavy reply', () => {
  /** One step with `count` parallel calls; results arrive oldest first, so most land outside the window. */
  function parallel(count: number, step = 1, prefix = 'c'): UnsequencedStreamEvent[] {
    const events: UnsequencedStreamEvent[] = [{ type: 'step.start', step }];
    for (let i = 0; i < count; i++) events.push({ type: 'tool.call', step, toolCallId: `${prefix}${i}`, toolName: 'search', displayName: 'Search', args: i });
    for (let i = 0; i < count; i++) events.push({ type: 'tool.done', toolCallId: `${prefix}${i}`, toolName: 'search', result: i * 10 });
    return events;
  }
  const start: UnsequencedStreamEvent[] = [{ type: 'run.start', model: 'm' }, { type: 'user.message', message: { role: 'user', content: 'go' } }];
  const count = EAGER_PARTS_LIMIT + 3 * LIST_WINDOW;

  it('settles parallel calls in any order, including ones far before the last part', () => {
    const state = reduceAll(numbered([...start, ...parallel(count)]));
    const parts = toolPartsOf(state);
    expect(parts).toHaveLength(count);
    parts.forEach((part, i) => expect(part).toMatchObject({ toolCallId: `c${i}`, state: 'done', args: i, result: i * 10 }));
  });

  it('shows many parts as a plain array property (spread, JSON, structuredClone, equality), built once', () => {
    const state = reduceAll(numbered([...start, ...parallel(count)]));
    const reply = state.messages[1]!;
    expect(Array.isArray(reply.parts)).toBe(true);
    expect(Object.keys(reply)).toEqual(['id', 'role', 'parts']);
    expect({ ...reply }.parts).toBe(reply.parts);
    expect(reply.parts).toBe(reply.parts);
    expect((JSON.parse(JSON.stringify(reply)) as typeof reply).parts).toHaveLength(count);
    expect(structuredClone(reply).parts[count - 1]).toEqual(reply.parts[count - 1]);
    expect(reply).toEqual({ id: 'm1', role: 'assistant', parts: [...reply.parts] });
  });

  it('a result for one call of a long reply changes only that part; the older state still shows the call running', () => {
    const events = numbered([...start, ...parallel(count)]);
    const beforeResults = reduceAll(events.slice(0, 2 + 1 + count));
    const next = reduceAgentEvents(beforeResults, events[2 + 1 + count]!); // the result of c0, the first part
    const was = beforeResults.messages[1]!.parts;
    const now = next.messages[1]!.parts;
    expect(now[0]).toMatchObject({ toolCallId: 'c0', state: 'done' });
    expect(was[0]).toMatchObject({ toolCallId: 'c0', state: 'running' });
    for (let i = 1; i < count; i++) expect(now[i]).toBe(was[i]);
    expect(next.messages[0]).toBe(beforeResults.messages[0]);
  });

  it('two branches from one state that reuse the same call ids each see only their own parts', () => {
    const base = reduceAll(numbered(start));
    const a = reduceAll(numbered(parallel(count, 1, 'x'), 'run_1', base.lastSeq), base);
    const b = reduceAll(numbered([{ type: 'text.delta', step: 1, delta: 'first' }, ...parallel(3, 1, 'x')], 'run_1', base.lastSeq), base);
    // `b` reuses x0..x2, which the shared index already knows from `a`: still one part each, in `b`'s own message.
    expect(toolPartsOf(b).map((p) => [p.toolCallId, p.state])).toEqual([
      ['x0', 'done'],
      ['x1', 'done'],
      ['x2', 'done'],
    ]);
    expect(b.messages[1]!.parts[0]).toEqual({ type: 'text', text: 'first' });
    expect(toolPartsOf(a)).toHaveLength(count);
    expect(base.messages).toHaveLength(1);
  });
});
