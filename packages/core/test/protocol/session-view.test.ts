import { describe, expect, it } from 'vitest';
import { sessionUIState } from '@lousho/protocol';
import { reduceAgentEvents, type AgentStreamEvent, type AgentUIState } from '../../src/index.js';
import { numbered } from '../../../protocol/test/ui-state/helpers.js';

/** A session whose running turn has logged `events`, as `agent.sessions` shows it. */
function sessions(events: AgentStreamEvent[]) {
  const session = { id: 's', messages: [], status: 'running' as const, pendingApproval: null, lastSeq: events.at(-1)!.seq, runStartIndex: 0 };
  return { get: () => session, eventsAfter: (_: string, after: number) => events.filter((event) => event.seq > after) };
}

const textsOf = (state: AgentUIState) => state.messages.flatMap((message) => message.parts.map((part) => (part.type === 'text' ? part.text : part.type)));

describe('sessionUIState (what GET /sessions/:id serves)', () => {
  const turn = numbered([
    { type: 'run.start', model: 'm' },
    { type: 'user.message', message: { role: 'user', content: 'go' } },
    { type: 'step.start', step: 1 },
    { type: 'text.delta', step: 1, delta: 'C' },
    { type: 'step.start', step: 2 },
    { type: 'text.delta', step: 2, delta: 'D' },
  ]);

  it('read right after a step began, then sent as JSON and followed, still starts the new step in a new part', () => {
    const logged = turn.slice(0, 5); // the turn is between `step.start` and the step's first text
    const served = JSON.parse(JSON.stringify(sessionUIState(reduceAgentEvents, sessions(logged), 's')!.state)) as AgentUIState;
    // The client follows from the state's lastSeq: the events after it come from the stream.
    let state = served;
    for (const event of turn) if (event.seq > served.lastSeq) state = reduceAgentEvents(state, event);
    const direct = turn.reduce<AgentUIState | undefined>((s, event) => reduceAgentEvents(s, event), undefined)!;
    expect(textsOf(state)).toEqual(['go', 'C', 'D']);
    expect(state).toEqual(direct);
  });

  it('otherwise serves every logged event', () => {
    expect(sessionUIState(reduceAgentEvents, sessions(turn), 's')!.state.lastSeq).toBe(turn.at(-1)!.seq);
  });
});
