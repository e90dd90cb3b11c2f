/** The takeover property of test/durable/takeover.test.ts on PostgreSQL: a process dies at a random write, another finishes the conversation. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentStreamEvent } from '@lousho/core';
import { conversationAgent, converse, freezingStore, readBack, reduceAll, shown } from '@lousho/test-kit/durable';
import { databaseUrl, openStore } from './pg-env.js';

const LEASE_MS = 150;

describe.skipIf(!databaseUrl)('PostgresStore: a process that dies at any point, and another that takes over', () => {
  it('random crash points end in the uninterrupted transcript and UI state (read back, and live across both processes)', async () => {
    const counted = freezingStore(await openStore({ leaseMs: LEASE_MS }));
    const reference = conversationAgent(counted.store);
    const events: AgentStreamEvent[] = [];
    reference.sessions.subscribe('chat', (event) => events.push(event));
    expect(await converse(reference, counted.store, 'chat')).toBe('done');
    const expected = shown(await readBack(reference, 'chat'));
    expect(shown(reduceAll(events))).toEqual(expected);
    const transcript = reference.sessions.get('chat')!.messages;

    let interruptions = 0;
    const points = fc.sample(fc.integer({ min: 0, max: counted.writes - 1 }), { numRuns: 10, seed: 0x9e1 });
    for (const n of points) {
      const store = await openStore({ leaseMs: LEASE_MS });
      const dying = freezingStore(store, n);
      const first = conversationAgent(dying.store);
      const seen: AgentStreamEvent[] = [];
      first.sessions.subscribe('chat', (event) => seen.push(event));
      expect(await converse(first, dying.store, 'chat', dying.frozen)).toBe('frozen');
      const second = conversationAgent(store);
      expect(await converse(second, store, 'chat')).toBe('done');
      await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS));
      expect(shown(await readBack(second, 'chat')), `write ${n}: GET /sessions/:id`).toEqual(expected);
      const live = reduceAll(second.sessions.eventsAfter('chat', seen.at(-1)?.seq ?? 0), reduceAll(seen));
      expect(shown(live), `write ${n}: the live client`).toEqual(expected);
      expect(second.sessions.get('chat')!.messages, `write ${n}: transcript`).toEqual(transcript);
      if ((await store.sessions.eventsAfter('chat', 0)).some((e) => e.type === 'run.interrupted')) interruptions++;
    }
    expect(interruptions).toBeGreaterThan(0);
  }, 180_000);
});
