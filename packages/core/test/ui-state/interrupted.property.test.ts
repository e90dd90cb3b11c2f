import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closingOf } from '../../src/agent/interrupted-leg.js';
import type { AgentStreamEvent, UnsequencedStreamEvent } from '@lousho/protocol';
import type { StoredCheckpoint } from '@lousho/protocol';
import type { AgentUIState } from '@lousho/protocol';
import { numbered, reduceAll, toolParts, usage } from '../../../protocol/test/ui-state/helpers.js';

/**
 * `run.interrupted` as the server computes it (`closingOf`) and the reducer applies it: a leg cut
 * after any checkpoint, with any part of the next model step streamed, then ended with
 * `run.interrupted` and continued by the leg that recovers the run, ends in the state of the run
 * that was never cut.
 */

interface StepPlan {
  reasoning: string[];
  text: string[];
  /** Calls with their streamed argument pieces and whether they fail. */
  calls: { args: string[]; fails: boolean }[];
}

const arbPiece = fc.string({ minLength: 1, maxLength: 6 });
const arbStep: fc.Arbitrary<StepPlan> = fc.record({
  reasoning: fc.array(arbPiece, { maxLength: 2 }),
  text: fc.array(arbPiece, { maxLength: 3 }),
  calls: fc.array(fc.record({ args: fc.array(arbPiece, { minLength: 1, maxLength: 3 }), fails: fc.boolean() }), { maxLength: 2 }),
});

/** One model step's events (`step.done` included) and the calls that run after it. */
function stepEvents(step: number, plan: StepPlan, final: boolean): { model: UnsequencedStreamEvent[]; tools: UnsequencedStreamEvent[] } {
  const model: UnsequencedStreamEvent[] = [{ type: 'step.start', step }];
  for (const delta of plan.reasoning) model.push({ type: 'reasoning.delta', step, delta });
  for (const delta of plan.text) model.push({ type: 'text.delta', step, delta });
  const calls = final ? [] : plan.calls;
  calls.forEach((call, i) => {
    const toolCallId = `call_${step}_${i}`;
    model.push({ type: 'tool.input.start', step, toolCallId, toolName: 'lookup', displayName: 'Look up' });
    for (const delta of call.args) model.push({ type: 'tool.input.delta', toolCallId, delta });
  });
  model.push({ type: 'step.done', step, finishReason: calls.length ? 'tool_calls' : 'stop', usage: usage(10 * step, 5 * step), stepUsage: { step, model: 'm', usage: usage(10, 5), estimated: false } });
  const tools: UnsequencedStreamEvent[] = [];
  calls.forEach((call, i) => {
    const toolCallId = `call_${step}_${i}`;
    tools.push({ type: 'tool.call', step, toolCallId, toolName: 'lookup', displayName: 'Look up', args: { i } });
    tools.push({ type: 'tool.progress', toolCallId, toolName: 'lookup', progress: { step } });
    tools.push(
      call.fails
        ? { type: 'tool.error', toolCallId, toolName: 'lookup', error: { error: 'ToolError', toolName: 'lookup', message: 'no', kind: 'execution' } }
        : { type: 'tool.done', toolCallId, toolName: 'lookup', result: { step, i }, artifacts: [{ type: 'link', data: i }] },
    );
  });
  return { model, tools };
}

const plain = (state: AgentUIState) => JSON.parse(JSON.stringify({ ...state, lastSeq: 0 })) as unknown;

describe('run.interrupted (property)', () => {
  it('a leg cut anywhere after a checkpoint, ended with run.interrupted and recovered, shows what the uncut run shows', () => {
    fc.assert(
      fc.property(
        fc.array(arbStep, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        fc.boolean(),
        (plans, cutSeed, voidSeed, history, viaJson) => {
          // An earlier, finished run in the same session (its messages come first in the UI).
          const before: UnsequencedStreamEvent[] = history
            ? [
                { type: 'run.start', model: 'm' },
                { type: 'user.message', message: { role: 'user', content: 'Earlier' } },
                { type: 'step.start', step: 1 },
                { type: 'text.delta', step: 1, delta: 'Earlier answer.' },
                { type: 'run.done', finishReason: 'stop', usage: usage(1, 1), text: 'Earlier answer.', steps: 1 },
              ]
            : [];
          const steps = plans.map((plan, i) => stepEvents(i + 1, plan, i === plans.length - 1));
          // Checkpoints: after the input, and after each step's batch (the model's turn and its calls).
          const opening: UnsequencedStreamEvent[] = [{ type: 'run.start', model: 'm' }, { type: 'user.message', message: { role: 'user', content: 'Go' } }];
          const segments = [opening, ...steps.map((s) => [...s.model, ...s.tools])];
          const total = usage(10 * plans.length, 5 * plans.length);
          const end: UnsequencedStreamEvent = { type: 'run.done', finishReason: 'stop', usage: total, text: '', steps: plans.length };
          const whole = [...before, ...segments.flat(), end];
          const uncut = reduceAll(numbered(whole, 'run_1'));

          // The cut: the checkpoint after segment k; then part of the next step's model events (void).
          const k = cutSeed % segments.length;
          const covered = [...before, ...segments.slice(0, k + 1).flat()];
          const next = steps[k]?.model ?? [];
          const streamed = next.slice(0, voidSeed % (next.length + 1));
          const dead = numbered([...covered, ...streamed], 'run_1');
          const stored: StoredCheckpoint = {
            sessionId: 'sess_1',
            messages: [],
            leased: false,
            run: {
              runId: 'run_1',
              model: 'm',
              configContext: { input: 'Go' },
              runStart: 0,
              state: 'running',
              steps: k,
              usage: k === 0 ? usage(0, 0) : usage(10 * k, 5 * k),
              stepUsage: [],
              toolCalls: [],
              seq: covered.length,
            },
          };
          const closing = closingOf(dead, stored, 0)!;
          expect(closing.events).toHaveLength(1);
          const interrupted = numbered(closing.events, 'run_1', dead.length);
          // Seen live, or read back (JSON) after the crash: the same.
          let state = reduceAll(dead);
          if (viaJson) state = JSON.parse(JSON.stringify(state)) as AgentUIState;
          state = reduceAll(interrupted, state);
          expect(state).toMatchObject({ status: 'idle', finishReason: 'interrupted' });
          for (const part of toolParts(state)) expect(part.state).not.toMatch(/^(input-streaming|running)$/);
          // The recovering leg: the run goes on from the checkpoint (the cut step is asked again).
          const recovery = numbered([{ type: 'run.start', model: 'm', continuation: true }, ...segments.slice(k + 1).flat(), end], 'run_1', dead.length + 1);
          expect(plain(reduceAll(recovery, state))).toEqual(plain(uncut));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('alone (nobody went on yet), it shows the checkpointed conversation with nothing left going', () => {
    const events = numbered([
      { type: 'run.start', model: 'm' },
      { type: 'user.message', message: { role: 'user', content: 'Find it' } },
      { type: 'step.start', step: 1 },
      { type: 'text.delta', step: 1, delta: 'Looking.' },
      { type: 'tool.input.start', step: 1, toolCallId: 'c1', toolName: 'lookup', displayName: 'Look up' },
      { type: 'tool.input.delta', toolCallId: 'c1', delta: '{"q":1}' },
      { type: 'step.done', step: 1, finishReason: 'tool_calls', usage: usage(10, 5), stepUsage: { step: 1, model: 'm', usage: usage(10, 5), estimated: false } },
      // checkpoint here (seq 7); then the call starts, and the next step streams before the crash
      { type: 'tool.call', step: 1, toolCallId: 'c1', toolName: 'lookup', displayName: 'Look up', args: { q: 1 } },
      { type: 'step.start', step: 2 },
      { type: 'text.delta', step: 2, delta: 'Half a sent' },
      { type: 'tool.input.start', step: 2, toolCallId: 'c2', toolName: 'lookup', displayName: 'Look up' },
    ]);
    const stored = { sessionId: 'sess_1', messages: [], leased: false, run: { runId: 'run_1', model: 'm', configContext: { input: 'x' }, runStart: 0, state: 'running', steps: 1, usage: usage(10, 5), stepUsage: [], toolCalls: [], seq: 7 } } as StoredCheckpoint;
    const closing = closingOf(events, stored, 0)!;
    expect(closing.events).toEqual([{ type: 'run.interrupted', finishReason: 'interrupted', usage: usage(10, 5), messages: 2, parts: 2 }]);
    const state = reduceAll(numbered(closing.events, 'run_1', events.length), reduceAll(events));
    expect(state.messages[1]!.parts).toEqual([
      { type: 'text', text: 'Looking.' },
      expect.objectContaining({ toolCallId: 'c1', displayName: 'Look up', state: 'cancelled', args: { q: 1 } }),
    ]);
    expect(state).toMatchObject({ status: 'idle', finishReason: 'interrupted', usage: usage(10, 5), pendingApproval: null, error: null });
    // Ended legs are left alone; a log without a leg going on needs no closing.
    expect(closingOf([...events, ...numbered(closing.events, 'run_1', events.length)] as AgentStreamEvent[], stored, 0)).toBeUndefined();
    expect(closingOf([], stored, 0)).toBeUndefined();
  });
});
