import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore } from '../../src/index.js';
import { memoryStore, type CompleteAgentStore } from '@lousho/core';
import type { AgentStreamEvent } from '@lousho/core';
import { conversationAgent, converse, freezingStore, readBack, reduceAll, shown } from '@lousho/test-kit/durable';

/**
 * A process dies at any point of a conversation (its n-th store write never happens, nor anything
 * after it), and another process takes the session over and finishes the conversation. Whatever n,
 * the session must end as if nothing had happened: the same transcript, the same UI state from
 * `GET /sessions/:id`, and the same UI state for a client that saw what the first process sent and
 * then followed the second (apart from run ids, approval ids and sequence numbers).
 */

const work = mkdtempSync(join(tmpdir(), 'lousho-takeover-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let files = 0;

const LEASE_MS = 40;
type Open = () => CompleteAgentStore;
const stores: [string, Open][] = [
  ['memory', () => memoryStore({ leaseMs: LEASE_MS })],
  ['SQLite', () => new SqliteStore(join(work, `s${files++}.db`), { leaseMs: LEASE_MS })],
];

async function reference(open: Open) {
  const counted = freezingStore(open());
  const agent = conversationAgent(counted.store);
  const events: AgentStreamEvent[] = [];
  agent.sessions.subscribe('chat', (event) => events.push(event));
  expect(await converse(agent, counted.store, 'chat')).toBe('done');
  const state = await readBack(agent, 'chat');
  return { writes: counted.writes, state, live: reduceAll(events), transcript: agent.sessions.get('chat')!.messages, events };
}

/** The conversation with the first process frozen before its write `n`, finished by a second one. */
async function interrupted(open: Open, n: number) {
  const store = open();
  const dying = freezingStore(store, n);
  const first = conversationAgent(dying.store);
  const seen: AgentStreamEvent[] = [];
  first.sessions.subscribe('chat', (event) => seen.push(event));
  const outcome = await converse(first, dying.store, 'chat', dying.frozen);
  const second = conversationAgent(store);
  expect(await converse(second, store, 'chat')).toBe('done');
  // Read once the dead process's lease ran out: a leg it was ending (its checkpoint written, its
  // last events not) is ended by the reader then.
  await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
  const state = await readBack(second, 'chat');
  // The client saw what the first process sent, then reconnects to the second after the last event it had.
  const last = seen.at(-1)?.seq ?? 0;
  const live = reduceAll(second.sessions.eventsAfter('chat', last), reduceAll(seen));
  return { outcome, state, live, transcript: second.sessions.get('chat')!.messages, log: await store.sessions.eventsAfter('chat', 0) };
}

describe.each(stores)('%s: a process that dies at any point, and another that takes over', (_name, open) => {
  it('the reference conversation shows everything a UI needs, live and read back alike', async () => {
    const { state, live, events } = await reference(open);
    expect(shown(state)).toEqual(shown(live));
    const parts = state.messages.flatMap((m) => m.parts);
    expect(parts).toContainEqual(expect.objectContaining({ type: 'tool', displayName: 'Look up', state: 'done', artifacts: [expect.objectContaining({ title: 'Launch plan' })], progress: { searching: 'launch date' } }));
    expect(parts).toContainEqual(expect.objectContaining({ type: 'tool', toolName: 'send_email', state: 'rejected', approval: expect.objectContaining({ approved: false, note: 'Not yet, thanks.' }) }));
    expect(parts).toContainEqual(expect.objectContaining({ type: 'tool', toolName: 'ask_question', state: 'done', approval: expect.objectContaining({ answer: 'Friday', question: 'Which day?' }) }));
    expect(parts).toContainEqual({ type: 'reasoning', text: 'The plan says May.' });
    expect(events.some((e) => e.type === 'error')).toBe(true);
    expect(state).toMatchObject({ status: 'idle', finishReason: 'stop' });
  });

  it('every crash point ends in the uninterrupted state: no reply twice, no call left streaming', async () => {
    const ref = await reference(open);
    const check = async (n: number) => {
      const run = await interrupted(open, n);
      expect(run.outcome, `write ${n}`).toBe('frozen');
      expect(run.transcript, `write ${n}: transcript`).toEqual(ref.transcript);
      expect(shown(run.state), `write ${n}: GET /sessions/:id`).toEqual(shown(ref.state));
      expect(shown(run.live), `write ${n}: the live client`).toEqual(shown(ref.live));
      // Every leg in the log ends: run.done, error, or run.interrupted for the one that died.
      const starts = run.log.filter((e) => e.type === 'run.start').length;
      const ends = run.log.filter((e) => e.type === 'run.done' || e.type === 'error' || e.type === 'run.interrupted').length;
      expect(ends, `write ${n}: legs ended`).toBe(starts);
      return run;
    };
    // Every write of the conversation in memory; a random sample on a file.
    const points = _name === 'memory' ? Array.from({ length: ref.writes }, (_, n) => n) : fc.sample(fc.integer({ min: 0, max: ref.writes - 1 }), { numRuns: 25, seed: 0x7a4e });
    let interruptions = 0;
    const started = Date.now();
    for (const n of points) {
      const run = await check(n);
      if (run.log.some((e) => e.type === 'run.interrupted')) interruptions++;
    }
    console.log(`takeover (${_name}): ${points.length} crash points of ${ref.writes} writes, ${interruptions} cut a leg, ${Date.now() - started} ms`);
    // Enough of them cut a leg in the middle (the rest fall between legs, or end one).
    expect(interruptions).toBeGreaterThan(points.length / 4);
  }, 120_000);
});
