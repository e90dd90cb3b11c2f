import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState, type UIMessage, type UIPart } from '../../src/ui-state/index.js';
import { arbEvents, arbFlowRunEvents, arbRunEvents } from '../protocol/arbitraries.js';
import { reduceAll, toolParts } from './helpers.js';

const arbAnyEvents = fc.oneof(arbRunEvents, arbEvents, arbFlowRunEvents);

/** Every state along the way, starting with the initial one. */
function states(events: readonly AgentStreamEvent[]): AgentUIState[] {
  const out: AgentUIState[] = [initialAgentUIState()];
  for (const event of events) out.push(reduceAgentEvents(out[out.length - 1], event));
  return out;
}

function changedIndexes<T>(before: readonly T[], after: readonly T[]): number[] {
  const changed: number[] = [];
  for (let i = 0; i < Math.min(before.length, after.length); i++) if (before[i] !== after[i]) changed.push(i);
  return changed;
}

describe('reduceAgentEvents (properties)', () => {
  it('cutting the events anywhere and re-applying from the cut, with overlap, gives the identical state', () => {
    fc.assert(
      fc.property(arbAnyEvents, fc.nat(), fc.nat(), (events, cutSeed, overlapSeed) => {
        const cut = cutSeed % (events.length + 1);
        const overlap = overlapSeed % (cut + 1);
        const before = reduceAll(events.slice(0, cut));
        const resumed = reduceAll(events.slice(cut - overlap), before);
        expect(resumed).toEqual(reduceAll(events));
      }),
      { numRuns: 400 },
    );
  });

  it('applying every event twice is the same as applying it once, and the repeat returns the same object', () => {
    fc.assert(
      fc.property(arbAnyEvents, (events) => {
        let state = initialAgentUIState();
        for (const event of events) {
          state = reduceAgentEvents(state, event);
          expect(reduceAgentEvents(state, event)).toBe(state);
        }
        expect(state).toEqual(reduceAll(events));
      }),
      { numRuns: 200 },
    );
  });

  it('unknown event types anywhere change nothing', () => {
    fc.assert(
      fc.property(arbAnyEvents, fc.array(fc.nat(), { maxLength: 5 }), (events, positions) => {
        const mixed: AgentStreamEvent[] = [...events];
        for (const position of positions) {
          const at = position % (mixed.length + 1);
          mixed.splice(at, 0, { type: 'future.event', seq: 1e9, runId: 'x', payload: { a: 1 } } as unknown as AgentStreamEvent);
        }
        expect(reduceAll(mixed)).toEqual(reduceAll(events));
      }),
      { numRuns: 200 },
    );
  });

  it('is pure: no state along the way is changed by later events', () => {
    fc.assert(
      fc.property(arbAnyEvents, (events) => {
        const all = states(events);
        const frozen = all.map((state) => JSON.stringify(state));
        reduceAll(events, all[Math.floor(all.length / 2)]); // branch from the middle too
        expect(all.map((state) => JSON.stringify(state))).toEqual(frozen);
      }),
      { numRuns: 200 },
    );
  });

  it('an event touches at most one message (and in it one part), everything else keeps its identity', () => {
    fc.assert(
      fc.property(arbAnyEvents, (events) => {
        const all = states(events);
        events.forEach((event, i) => {
          const before = all[i]!;
          const after = all[i + 1]!;
          if (after === before) return;
          if (event.type === 'run.interrupted') {
            // It drops what a dead leg showed: messages from the end, parts from the end of the last one kept.
            const kept = Math.min(event.messages, before.messages.length);
            expect(after.messages).toHaveLength(kept);
            after.messages.slice(0, -1).forEach((message, m) => expect(message).toBe(before.messages[m]));
            return;
          }
          const grew = after.messages.length - before.messages.length;
          expect(grew === 0 || grew === 1).toBe(true);
          const changed = changedIndexes(before.messages, after.messages);
          expect(changed.length + grew).toBeLessThanOrEqual(1);
          if (changed.length === 0 && grew === 0) expect(after.messages).toBe(before.messages);
          for (const index of changed) {
            const partsBefore: readonly UIPart[] = (before.messages[index] as UIMessage).parts;
            const partsAfter: readonly UIPart[] = (after.messages[index] as UIMessage).parts;
            const touched = changedIndexes(partsBefore, partsAfter).length + (partsAfter.length - partsBefore.length);
            // Ending a run may cancel several unfinished calls at once; any other event touches one part.
            if (event.type !== 'run.done' && event.type !== 'error') expect(touched).toBeLessThanOrEqual(1);
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it('in realistic runs, no streamed text is lost or duplicated and every tool call ends settled', () => {
    fc.assert(
      fc.property(arbRunEvents, (events) => {
        const state = reduceAll(events);
        const streamed = events.map((event) => (event.type === 'text.delta' ? event.delta : '')).join('');
        const shown = state.messages
          .filter((message) => message.role === 'assistant')
          .flatMap((message) => message.parts)
          .map((part) => (part.type === 'text' ? part.text : ''))
          .join('');
        expect(shown).toBe(streamed);
        for (const part of toolParts(state)) expect(['done', 'error', 'rejected', 'cancelled']).toContain(part.state);
        const last = events[events.length - 1]!;
        const expected = last.type === 'error' ? 'error' : last.type === 'run.done' && last.finishReason === 'aborted' ? 'aborted' : 'idle';
        expect(state.status).toBe(expected);
        expect(state.pendingApproval).toBeNull();
        expect(state.lastSeq).toBe(last.seq);
      }),
      { numRuns: 300 },
    );
  });

  it('in realistic flow runs, every node is one part that ends settled, with its agent run nested', () => {
    fc.assert(
      fc.property(arbFlowRunEvents, (events) => {
        const state = reduceAll(events);
        const started = events.filter((event) => event.type === 'flow.node.start');
        const parts = state.messages.flatMap((message) => message.parts).filter((part) => part.type === 'flow-node');
        expect(parts.map((part) => part.toolCallId)).toEqual(started.map((event) => event.toolCallId));
        for (const part of parts) {
          expect(['done', 'error', 'cancelled', 'rejected']).toContain(part.state);
          const streamed = events
            .filter((event) => event.type === 'flow.node.event' && event.toolCallId === part.toolCallId && event.event.type === 'text.delta')
            .map((event) => (event as unknown as { event: { delta: string } }).event.delta)
            .join('');
          if (part.kind === 'agent') expect(part.run?.messages.flatMap((m) => m.parts).map((p) => (p.type === 'text' ? p.text : '')).join('')).toBe(streamed);
        }
        // Nothing of a flow run is shown as plain text of the reply.
        const replies = state.messages.filter((message) => message.role === 'assistant');
        expect(replies.flatMap((message) => message.parts).filter((part) => part.type === 'text')).toEqual([]);
        expect(state.pendingApproval).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});
