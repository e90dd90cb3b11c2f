// Cost of a text delta with 10 to 100,000 messages before it (docs/events.md, "Cost").
// Run: npx vitest bench --run --project protocol packages/protocol/test/ui-state/reducer-cost.bench.ts
// Not a test: machines are noisy, so nothing here asserts a time.
import { bench, describe } from 'vitest';
import type { AgentStreamEvent } from '../../src/contracts/events.js';
import type { Message } from '../../src/messages.js';
import { reduceAgentEvents, stateFromTranscript, type AgentUIState } from '../../src/ui-state/index.js';

const DELTAS = 10_000;

function streamingState(priorMessages: number): AgentUIState {
  const transcript: Message[] = [];
  for (let i = 0; i < priorMessages; i++) transcript.push({ role: i % 2 ? 'assistant' : 'user', content: `message ${i}` });
  let state = stateFromTranscript(transcript, null, { lastSeq: 0 });
  state = reduceAgentEvents(state, { type: 'run.start', seq: 1, runId: 'r', model: 'm' });
  state = reduceAgentEvents(state, { type: 'user.message', seq: 2, runId: 'r', message: { role: 'user', content: 'hi' } });
  // The reply exists already, so every measured delta replaces the last message (a new message
  // from this shared start state would fork the list on every iteration and measure that instead).
  return reduceAgentEvents(state, { type: 'text.delta', seq: 3, runId: 'r', step: 1, delta: 'Hello' });
}

const deltas: AgentStreamEvent[] = Array.from({ length: DELTAS }, (_, i) => ({ type: 'text.delta', seq: i + 4, runId: 'r', step: 1, delta: 'word ' }));

describe(`${DELTAS} text deltas`, () => {
  for (const prior of [10, 100, 10_000, 100_000]) {
    const start = streamingState(prior);
    bench(`after ${prior} messages`, () => {
      let state = start;
      for (const event of deltas) state = reduceAgentEvents(state, event);
    });
  }
});
