/**
 * The database goes away while turns stream (issue 27): restarted fast and immediately, and out for
 * longer than the lease, with two handler processes sharing it. Runs on a cluster of its own, with
 * `synchronous_commit=on` (an immediate stop is a crash to PostgreSQL: with it off, the last
 * answered commits would be lost by design of PostgreSQL, not of the store). What must hold:
 *   - a client only ever gets an event under the number the store gave it; the turn's process
 *     tells its own client about the lost store with an `error` that has no number;
 *   - once the lease has run out, the session says `interrupted` on both processes, without
 *     anybody sending anything, and the resume route goes on from its last checkpoint;
 *   - a client that reconnects with its last number ends in the state `GET /sessions/:id` shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentStreamEvent, AgentUIState, Message } from '@lousho/core';
import { PostgresStore } from '../src/index.js';
import { pgBinDir, startCluster, startServer, stopCluster, stopServer, type Cluster } from '../../../scripts/postgres-cluster.mjs';
import { json, plain, readSse, reduceAll } from '@lousho/test-kit/http';
import { expectSentAsStored, openStream, sleep, until, within } from './live-stream.js';
import { bundleChild, startHandler, type HandlerProcess } from './processes.js';
import { databaseUrl, freshSchema, synchronousCommitOf } from './pg-env.js';

const LEASE_MS = 1500;

const binaries = pgBinDir();
if (!binaries && databaseUrl && process.env.CI !== 'true') console.log('[postgres] Skipping the restart tests: they start their own cluster and no PostgreSQL binaries are installed.');

describe.skipIf((!binaries && process.env.CI !== 'true') || !databaseUrl)('the database restarted or out while turns stream (own cluster, synchronous_commit=on)', () => {
  const schema = freshSchema('restart');
  let cluster: Cluster;
  let bundle: Awaited<ReturnType<typeof bundleChild>>;
  let a: HandlerProcess;
  let b: HandlerProcess;
  let store: PostgresStore;

  beforeAll(async () => {
    cluster = await startCluster({ synchronousCommit: true });
    expect(await synchronousCommitOf(cluster.url)).toBe('on');
    store = await PostgresStore.connect({ connectionString: cluster.url, schema, leaseMs: LEASE_MS, noSignals: true });
    bundle = await bundleChild();
    [a, b] = await Promise.all([startHandler(bundle.file, cluster.url, schema, LEASE_MS), startHandler(bundle.file, cluster.url, schema, LEASE_MS)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b].filter(Boolean).map((p) => p.kill()));
    await store?.close();
    bundle?.remove();
    if (cluster) stopCluster(cluster.dir);
  });

  const newSession = async (on: HandlerProcess): Promise<string> =>
    ((await (await fetch(`${on.url}/sessions`, { method: 'POST' })).json()) as { sessionId: string }).sessionId;
  const sessionOf = async (on: HandlerProcess, id: string) => {
    const response = await fetch(`${on.url}/sessions/${id}`);
    if (!response.ok) throw new Error(`GET /sessions/${id}: ${response.status}`);
    return (await response.json()) as { status: string; messages: Message[]; lastSeq: number; state: AgentUIState };
  };
  const numbered = (events: readonly AgentStreamEvent[]) => events.filter((e) => typeof e.seq === 'number');
  const lastSeqOf = (events: readonly AgentStreamEvent[]) => Math.max(0, ...numbered(events).map((e) => e.seq));

  /** Restarts the database: stopped (`mode`), down for `downMs`, started again on the same port. */
  async function restart(mode: 'fast' | 'immediate', downMs: number): Promise<void> {
    stopServer(cluster.dir, mode);
    await sleep(downMs);
    startServer(cluster.dir, cluster.port);
  }

  /** Reads the session's events after the client's last number, as a reconnecting client does; must not be a gap. */
  async function reconnect(on: HandlerProcess, id: string, seen: AgentStreamEvent[]): Promise<void> {
    const response = await fetch(`${on.url}/sessions/${id}/events`, { headers: { 'last-event-id': String(lastSeqOf(seen)) } });
    expect(response.status, `resume after ${lastSeqOf(seen)}: ${response.status === 200 ? '' : await response.text()}`).toBe(200);
    seen.push(...(await readSse(response)).events);
  }

  for (const mode of ['fast', 'immediate'] as const) {
    it(`a ${mode} restart mid-turn: clients only get stored events, the session is interrupted once the lease ran out, and a client that reconnects ends where GET /sessions/:id is`, async () => {
      const id = await newSession(a);
      a.send({ delay: 8 });
      const onA = await openStream(`${a.url}/sessions/${id}/messages`, json({ input: 'stream 120' }));
      expect(onA.status).toBe(200);
      // Someone follows the turn from the other process.
      await until(() => numbered(onA.events).length >= 3, 'the turn to start');
      const onB = await openStream(`${b.url}/sessions/${id}/events`, { headers: { 'last-event-id': '0' } });
      expect(onB.status).toBe(200);
      // Cut while the reply streams (the cut point differs per mode).
      await until(() => numbered(onA.events).length >= (mode === 'fast' ? 25 : 60), 'the reply to stream');
      await restart(mode, 300);
      await within(onA.done, "the turn's own stream to end");
      a.send({ delay: 0 });

      // Its process could not store the turn's end: its client gets the store error without a number.
      const end = onA.events.at(-1)!;
      expect(end).toMatchObject({ type: 'error', error: { code: 'LOUSHO_STORE_UNAVAILABLE' } });
      expect(end.seq).toBeUndefined();
      expect(onA.raw.trimEnd().split('\n\n').at(-1)).not.toMatch(/^id:/m);
      expect(onA.events.slice(0, -1).every((e) => typeof e.seq === 'number')).toBe(true);

      // Nobody sends anything: once the lease has run out, the follower on B ends with the turn
      // marked interrupted, and both processes say so.
      await within(onB.done, "B's follower to end by itself", 20_000);
      expect(onB.events.at(-1)).toMatchObject({ type: 'run.interrupted' });
      for (const on of [a, b]) await until(async () => (await sessionOf(on, id)).status === 'interrupted', `${on === a ? 'A' : 'B'} to show the session interrupted`);
      const interrupted = await sessionOf(b, id);
      expect(plain(reduceAll(onB.events))).toEqual(plain(interrupted.state));
      expect(interrupted.state).toMatchObject({ status: 'idle', finishReason: 'interrupted', error: null });

      // The client reconnects with its last number: no gap, whatever the store kept of the cut turn.
      const seen: AgentStreamEvent[] = onA.events.slice();
      await reconnect(a, id, seen);

      // "Resume", on the other process: the turn goes on from its last checkpoint and finishes.
      const resumed = await openStream(`${b.url}/sessions/${id}/resume`, { method: 'POST' });
      expect(resumed.status).toBe(200);
      await within(resumed.done, 'the resumed turn');
      expect(resumed.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });

      // The client follows again from its last number and ends in the state a reload shows.
      await reconnect(a, id, seen);
      const server = await sessionOf(a, id);
      expect(server.status).toBe('idle');
      expect(plain(reduceAll(seen))).toEqual(plain(server.state));
      expect(server.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
      // As if it had never been cut: the reply once, every call done, nothing left streaming.
      const reply = server.state.messages[1]!;
      expect(reply.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text).join('')).toBe(
        `${Array.from({ length: 120 }, (_, i) => `word${i + 1} `).join('')}All done, both parts are finished.`,
      );
      expect(reply.parts.filter((p) => p.type === 'tool').map((p) => (p as { state: string }).state)).toEqual(['done', 'done']);

      // Every numbered event any client got is the one the store holds under that number.
      const log = await store.sessions.eventsAfter(id, 0);
      expectSentAsStored([...seen, ...onB.events, ...resumed.events], log);
    }, 90_000);
  }

  it('an outage longer than the lease: nobody sends anything, and every cut turn says interrupted on both processes; a new message finishes it, then is answered', async () => {
    // One turn running on each process, each followed from the other one.
    const ids = [await newSession(a), await newSession(b)];
    a.send({ delay: 8 });
    b.send({ delay: 8 });
    const turns = [
      await openStream(`${a.url}/sessions/${ids[0]}/messages`, json({ input: 'stream 150' })),
      await openStream(`${b.url}/sessions/${ids[1]}/messages`, json({ input: 'stream 150' })),
    ];
    await until(() => turns.every((t) => numbered(t.events).length >= 5), 'both turns to start');
    const followers = [
      await openStream(`${b.url}/sessions/${ids[0]}/events`, { headers: { 'last-event-id': '0' } }),
      await openStream(`${a.url}/sessions/${ids[1]}/events`, { headers: { 'last-event-id': '0' } }),
    ];
    await until(() => turns.every((t) => numbered(t.events).length >= 30), 'both replies to stream');
    await restart('immediate', LEASE_MS * 2.5);
    a.send({ delay: 0 });
    b.send({ delay: 0 });
    for (const turn of turns) {
      await within(turn.done, 'a turn to end');
      expect(turn.events.at(-1)).toMatchObject({ type: 'error', error: { code: 'LOUSHO_STORE_UNAVAILABLE' } });
      expect(turn.events.at(-1)!.seq).toBeUndefined();
    }

    // Without anybody sending anything, the followers end and both sessions are interrupted everywhere.
    for (const follower of followers) {
      await within(follower.done, 'a follower to end by itself', 20_000);
      expect(follower.events.at(-1)).toMatchObject({ type: 'run.interrupted' });
    }
    for (const id of ids) {
      for (const on of [a, b]) {
        // The process that wrote `run.interrupted` holds the lease a moment longer (the session
        // shows `running` meanwhile), as in the test above: wait for it to let go.
        await until(async () => (await sessionOf(on, id)).status === 'interrupted', `${on === a ? 'A' : 'B'} to show the session interrupted`);
        const session = await sessionOf(on, id);
        expect(session.status).toBe('interrupted');
        expect(session.state).toMatchObject({ status: 'idle', finishReason: 'interrupted' });
        // Nothing of the cut reply is left open.
        const parts = session.state.messages.flatMap((m) => m.parts).filter((p) => p.type === 'tool');
        expect(parts.every((p) => (p as { state: string }).state !== 'input-streaming' && (p as { state: string }).state !== 'running')).toBe(true);
      }
    }

    // A new message to the first one (on the other process) finishes the interrupted turn first, then is answered.
    const next = await openStream(`${b.url}/sessions/${ids[0]}/messages`, json({ input: 'and then?' }));
    expect(next.status).toBe(200);
    await within(next.done, 'the new message');
    expect(next.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    const first = await sessionOf(a, ids[0]!);
    expect(first.messages.map((m) => (m.role === 'user' ? m.content : m.role))).toEqual(['stream 150', 'assistant', 'tool', 'tool', 'assistant', 'and then?', 'assistant']);
    expect(first.messages[4]!.content).toBe('All done, both parts are finished.');
    expect(first.messages[6]!.content).toBe('ok: and then?');
    // The "Resume" button on the second one.
    const resumed = await openStream(`${a.url}/sessions/${ids[1]}/resume`, { method: 'POST' });
    await within(resumed.done, 'the resumed turn');
    expect(resumed.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });

    // Each turn's own client reconnects from its last number and ends where a reload is.
    for (const [i, id] of ids.entries()) {
      const seen = turns[i]!.events.slice();
      const on = i === 0 ? a : b;
      await reconnect(on, id, seen);
      expect(plain(reduceAll(seen))).toEqual(plain((await sessionOf(on, id)).state));
      expectSentAsStored([...seen, ...followers[i]!.events], await store.sessions.eventsAfter(id, 0));
    }
  }, 90_000);
});
