/**
 * A store that fails mid-turn (its database went away): the turn's listeners only ever get events
 * under the numbers the store gave them, the turn stops at once and ends with the store's error
 * without a number, and it is not stored as failed: once the store is back it is interrupted and
 * resumes from its last checkpoint.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SDKError, type AgentStreamEvent, type LLMProvider, type Message, type StreamChunk } from '../../src/index.js';
import { memoryStore } from '../../src/stores/index.js';

const LEASE_MS = 40;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A memory store whose event appends and checkpoints fail while `down.value` is set. */
function flakyStore() {
  const store = memoryStore({ leaseMs: LEASE_MS });
  const down = { value: false };
  const unavailable = () => new SDKError('LOUSHO_STORE_UNAVAILABLE', 'Lost the connection to the store.');
  const appendEvents = store.sessions.appendEvents.bind(store.sessions);
  store.sessions.appendEvents = (...args) => {
    if (down.value) throw unavailable();
    return appendEvents(...args);
  };
  const save = store.checkpoints.save.bind(store.checkpoints);
  store.checkpoints.save = (...args) => {
    if (down.value) throw unavailable();
    return save(...args);
  };
  const renew = store.checkpoints.renew.bind(store.checkpoints);
  store.checkpoints.renew = (...args) => {
    if (down.value) throw unavailable();
    return renew(...args);
  };
  const release = store.checkpoints.release.bind(store.checkpoints);
  store.checkpoints.release = (...args) => {
    if (down.value) throw unavailable();
    return release(...args);
  };
  return { store, down };
}

/** Streams "Working" in ten pieces, calls `work`, then answers "Done.". */
function slowModel(pieces: { sent: number }): LLMProvider {
  return {
    name: 'script',
    defaultModel: 'script-1',
    async *stream({ messages }): AsyncIterable<StreamChunk> {
      const last = messages.at(-1) as Message;
      if (last.role === 'tool') {
        yield { type: 'text-delta', text: 'Done.' };
        yield { type: 'finish', finishReason: 'stop' };
        return;
      }
      for (let i = 0; i < 10; i++) {
        await sleep(2);
        pieces.sent++;
        yield { type: 'text-delta', text: `w${i} ` };
      }
      yield { type: 'tool-call', index: 0, id: 'call_work', name: 'work', arguments: '{}' };
      yield { type: 'finish', finishReason: 'tool_calls' };
    },
  };
}

const work = defineTool({ name: 'work', description: 'Works', input: z.object({}), execute: async () => 'worked' });

describe('the store fails mid-turn', () => {
  it('listeners get only stored numbers, then the store error without one; the turn is interrupted, not failed, and resumes once the store is back', async () => {
    const { store, down } = flakyStore();
    const pieces = { sent: 0 };
    const agent = createAgent({ provider: slowModel(pieces), tools: [work], store });
    const run = agent.stream('go', { sessionId: 's' });
    const events: AgentStreamEvent[] = [];
    const read = (async () => {
      for await (const event of run) {
        events.push(event);
        if (event.type === 'text.delta' && event.delta === 'w3 ') down.value = true;
      }
    })();
    await expect(run.result).rejects.toMatchObject({ code: 'LOUSHO_STORE_UNAVAILABLE' });
    await read;

    // What the listener got under a number is what the store holds under it, and nothing after.
    const last = events.at(-1)!;
    expect(last).toMatchObject({ type: 'error', error: { code: 'LOUSHO_STORE_UNAVAILABLE' } });
    expect(last.seq).toBeUndefined();
    const numbered = events.slice(0, -1);
    expect(numbered.map((e) => e.type)).toEqual(['run.start', 'user.message', 'step.start', 'text.delta', 'text.delta', 'text.delta', 'text.delta']);
    down.value = false;
    const stored = store.sessions.eventsAfter('s', 0);
    expect(stored.map((e) => e.seq)).toEqual(numbered.map((e) => e.seq));
    // The model was not left streaming into nothing: the turn stopped at once.
    expect(pieces.sent).toBeLessThan(10);
    // Cut off, not failed: the checkpoint still says running, and the session is interrupted.
    expect(store.checkpoints.load('s')!.run).toMatchObject({ state: 'running' });
    expect(agent.sessions.get('s')!.status).toBe('interrupted');

    // The store is back and the lease has run out: a read says so, then resume() finishes the turn.
    await sleep(LEASE_MS * 2);
    expect((await agent.sessions.load('s'))!.status).toBe('interrupted');
    expect(store.sessions.eventsAfter('s', 0).at(-1)).toMatchObject({ type: 'run.interrupted', seq: numbered.at(-1)!.seq + 1 });
    const resumed = await agent.resume('s', { force: false });
    expect(resumed.finishReason).toBe('stop');
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a failure the store reports on the turn’s final checkpoint also leaves it resumable, and the end is not numbered', async () => {
    const { store, down } = flakyStore();
    const agent = createAgent({ provider: slowModel({ sent: 0 }), tools: [work], store });
    // Down right when the answer has streamed: the turn's last checkpoint and end cannot be stored.
    const run = agent.stream('go', { sessionId: 's' });
    const events: AgentStreamEvent[] = [];
    for await (const event of run) {
      events.push(event);
      if (event.type === 'text.delta' && event.delta === 'Done.') down.value = true;
    }
    await expect(run.result).rejects.toMatchObject({ code: 'LOUSHO_STORE_UNAVAILABLE' });
    expect(events.at(-1)).toMatchObject({ type: 'error' });
    expect(events.at(-1)!.seq).toBeUndefined();
    expect(events.some((e) => e.type === 'run.done')).toBe(false);
    down.value = false;
    await sleep(LEASE_MS * 2);
    const resumed = await agent.resume('s', { force: false });
    // The answer was not checkpointed: the model is asked for it again, and the turn ends once.
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(store.sessions.eventsAfter('s', 0).filter((e) => e.type === 'run.done')).toHaveLength(1);
  });
});
