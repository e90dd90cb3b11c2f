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
import type { AgentStreamEvent, AgentUIState, Message } from '../../src/index.js';
import { PostgresStore } from '../../src/postgres/index.js';
import { pgBinDir, startCluster, startServer, stopCluster, stopServer, type Cluster } from '../../../../scripts/postgres-cluster.mjs';
import { json, plain, readSse, reduceAll } from '../http/helpers.js';
import { expectSentAsStored, openStream, sleep, until, within } from './live-stream.js';
import { bundleChild, startHandler, type HandlerProcess } from './processes.js';
import { databaseUrl, freshSchema } from './pg-env.js';

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

      // Nobody sends anything: once the lease has run out, both processes say the turn was interrupted.
      for (const on of [a, b]) await until(async () => (await sessionOf(on, id)).status === 'interrupted', `${on === a ? 'A' : 'B'} to show the session interrupted`);

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

      // Every numbered event any client got is the one the store holds under that number.
      const log = await store.sessions.eventsAfter(id, 0);
      expectSentAsStored([...seen, ...resumed.events], log);
    }, 90_000);
  }
});
