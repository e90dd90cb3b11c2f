/**
 * Sessions on PostgreSQL shared by two server processes (issue 11: "Scale out").
 *
 * 200 concurrent sessions spread over two handler processes (each an agent on one `PostgresStore`
 * behind createNodeListener() on 127.0.0.1), every turn streaming `DELTAS` text deltas. A quarter
 * of the sessions are also followed, live, on the *other* process (`GET /sessions/:id/events` with
 * `Last-Event-ID`, opened once the turn's first event arrived): their events cross processes
 * through the database (`LISTEN/NOTIFY`). Every stream is checked end to end: the turn's seqs run
 * 1, 2, 3… with no gap or duplicate and its text adds up; a follower gets exactly the seqs after
 * its resume point (a merged delta counts for the seqs it covers) and the same text.
 * The same load on SQLite in one process is the reference: the report gives events per second on
 * both and what PostgreSQL adds per event: in latency (per session, the time to its last event ÷
 * its events, p50) and in throughput cost (1 / events per second).
 * Needs PostgreSQL: DATABASE_URL, or the binaries for a throwaway cluster; skipped otherwise.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { setMaxListeners } from 'node:events';
import { Agent, request, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseEventStream, type AgentStreamEvent } from '@lousho/build-ai-agent';
import { pgBinDir, startCluster, stopCluster } from '../../../scripts/postgres-cluster.mjs';
import { startChild, type Child } from './load/children.js';
import { deltaText } from './load/mock-models.js';
import { percentile, writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

const DELTAS = 100;
const EXPECTED = Array.from({ length: DELTAS }, (_, i) => deltaText(i)).join('');

export interface PostgresLoadBenchOptions {
  /** Concurrent sessions (default 200). */
  sessions?: number;
  /** Every n-th session is also followed on the other process (default 4). */
  followEvery?: number;
  /** Runs per store (default 2; the median is reported). */
  runs?: number;
  deadlineMs?: number;
}

interface RunResult {
  completed: number;
  failed: number;
  firstError: string | undefined;
  events: number;
  wallMs: number;
  eventsPerSecond: number;
  /** Per completed session: ms from the request to the last event, divided by its events. */
  msPerEvent: number[];
  followed: number;
  followFailed: number;
  /** Per follower: ms between the turn's last event on its stream and the follower getting it. */
  followLagMs: number[];
}

class CheckError extends Error {}

function open(agent: Agent, port: number, method: 'GET' | 'POST', path: string, signal: AbortSignal, body?: string, headers: Record<string, string> = {}): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method,
        agent,
        signal,
        headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}) },
      },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Reads a turn's stream: seq 1, 2, 3… (deltas that waited for the reader may come merged), the text adds up, it ends with run.done. */
async function readTurn(res: IncomingMessage, onEvent: (event: AgentStreamEvent, at: number) => void): Promise<number> {
  if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
  let expected = 1;
  let text = '';
  let last = '';
  for await (const event of parseEventStream(res as AsyncIterable<Uint8Array>)) {
    const from = 'fromSeq' in event && typeof event.fromSeq === 'number' ? event.fromSeq : event.seq;
    if (from !== expected) throw new CheckError(`turn: seq ${from} where ${expected} was expected`);
    expected = event.seq + 1;
    if (event.type === 'text.delta') text += event.delta;
    last = event.type;
    onEvent(event, performance.now());
  }
  if (last !== 'run.done') throw new CheckError(`turn: the stream ended after '${last}'`);
  if (text !== EXPECTED) throw new CheckError(`turn: text of ${text.length} characters, ${EXPECTED.length} expected`);
  return expected - 1;
}

/** Reads a follower's stream after `after`: exactly the seqs after it (merged deltas cover theirs), the rest of the text. */
async function readFollower(res: IncomingMessage, after: number, textBefore: string): Promise<{ lastSeq: number; at: number }> {
  if (res.statusCode !== 200) throw new Error(`follow: HTTP ${res.statusCode}`);
  let expected = after + 1;
  let text = textBefore;
  let last: AgentStreamEvent | undefined;
  let at = 0;
  for await (const event of parseEventStream(res as AsyncIterable<Uint8Array>)) {
    if ('pieceSizes' in event) throw new CheckError('follow: a stored merged delta reached the client');
    const from = 'fromSeq' in event && typeof event.fromSeq === 'number' ? event.fromSeq : event.seq;
    if (from !== expected) throw new CheckError(`follow: seq ${from} where ${expected} was expected`);
    expected = event.seq + 1;
    if (event.type === 'text.delta') text += event.delta;
    last = event;
    at = performance.now();
  }
  if (last?.type !== 'run.done') throw new CheckError(`follow: the stream ended after '${last?.type}'`);
  if (text !== EXPECTED) throw new CheckError(`follow: text of ${text.length} characters, ${EXPECTED.length} expected`);
  return { lastSeq: last.seq, at };
}

async function runLoad(ports: number[], sessions: number, followEvery: number, deadlineMs: number, label: string): Promise<RunResult> {
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const deadline = AbortSignal.timeout(deadlineMs);
  setMaxListeners(sessions * 2 + 10, deadline);
  const body = JSON.stringify({ input: 'Write the benchmark reply.' });
  const result: RunResult = { completed: 0, failed: 0, firstError: undefined, events: 0, wallMs: 0, eventsPerSecond: 0, msPerEvent: [], followed: 0, followFailed: 0, followLagMs: [] };
  const fail = (error: unknown): void => {
    result.firstError ??= error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  };
  const one = async (i: number): Promise<void> => {
    const id = `${label}_${i}`;
    const port = ports[i % ports.length]!;
    const other = ports[(i + 1) % ports.length]!;
    const follow = ports.length > 1 && i % followEvery === 0;
    const start = performance.now();
    let follower: Promise<{ lastSeq: number; at: number }> | undefined;
    let doneAt = 0;
    let textSoFar = '';
    try {
      const res = await open(agent, port, 'POST', `/sessions/${id}/messages`, deadline, body);
      const events = await readTurn(res, (event, at) => {
        if (event.type === 'text.delta') textSoFar += event.delta;
        if (event.type === 'run.done') doneAt = at;
        // Follow from the other process once the turn is under way (its first event is stored).
        if (follow && !follower && event.seq >= 2) {
          const after = event.seq;
          const before = textSoFar;
          follower = open(agent, other, 'GET', `/sessions/${id}/events`, deadline, undefined, { 'last-event-id': String(after) }).then((r) => readFollower(r, after, before));
          follower.catch(() => {});
        }
      });
      result.completed++;
      result.events += events;
      result.msPerEvent.push((doneAt - start) / events);
    } catch (error) {
      result.failed++;
      fail(error);
    }
    if (follower) {
      result.followed++;
      try {
        const { at } = await follower;
        result.followLagMs.push(Math.max(0, at - doneAt));
      } catch (error) {
        result.followFailed++;
        fail(error);
      }
    }
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: sessions }, (_, i) => one(i)));
  result.wallMs = performance.now() - start;
  result.eventsPerSecond = (result.events / result.wallMs) * 1000;
  agent.destroy();
  return result;
}

async function servers(args: string[][]): Promise<{ children: Child[]; ports: number[] }> {
  const children = args.map((a) => startChild('./store-server.ts', a));
  try {
    const ports = await Promise.all(children.map(async (c) => (await c.ask<{ port: number }>(undefined, 60_000)).port));
    return { children, ports };
  } catch (error) {
    await Promise.all(children.map((c) => c.stop()));
    throw error;
  }
}

export async function runPostgresLoadBench(options: PostgresLoadBenchOptions = {}): Promise<Record<string, unknown> | undefined> {
  const sessions = options.sessions ?? 200;
  const followEvery = options.followEvery ?? 4;
  const runs = options.runs ?? 5;
  const deadlineMs = options.deadlineMs ?? 60_000;
  let url = process.env.DATABASE_URL;
  let cluster: Awaited<ReturnType<typeof startCluster>> | undefined;
  if (!url) {
    if (!pgBinDir()) {
      console.log('\nPostgreSQL load run: skipped (DATABASE_URL is not set and PostgreSQL is not installed: apt-get install postgresql).');
      return undefined;
    }
    cluster = await startCluster();
    url = cluster.url;
  }
  const dir = mkdtempSync(join(tmpdir(), 'lousho-pg-bench-'));
  const pgRuns: RunResult[] = [];
  const sqliteRuns: RunResult[] = [];
  try {
    for (let run = 0; run < runs; run++) {
      const schema = `bench_${process.pid}_${run}`;
      // Both processes share the schema; the first one to start creates it.
      const first = await servers([['postgres', url, schema, String(DELTAS)]]);
      const second = await servers([['postgres', url, schema, String(DELTAS)]]);
      try {
        const ports = [...first.ports, ...second.ports];
        const warm = await runLoad(ports, 20, followEvery, deadlineMs, `pgwarm${run}`);
        if (warm.failed + warm.followFailed > 0) throw new Error(`PostgreSQL warm-up failed: ${warm.firstError}`);
        pgRuns.push(await runLoad(ports, sessions, followEvery, deadlineMs, `pg${run}`));
      } finally {
        await Promise.all([...first.children, ...second.children].map((c) => c.stop()));
      }
      const lite = await servers([['sqlite', join(dir, `run${run}.db`), String(DELTAS)]]);
      try {
        await runLoad(lite.ports, 20, followEvery, deadlineMs, `litewarm${run}`);
        sqliteRuns.push(await runLoad(lite.ports, sessions, followEvery, deadlineMs, `lite${run}`));
      } finally {
        await Promise.all(lite.children.map((c) => c.stop()));
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    if (cluster) stopCluster(cluster.dir);
  }

  const summarize = (list: RunResult[]) => ({
    runs: list.length,
    completed: Math.min(...list.map((r) => r.completed)),
    failed: list.reduce((n, r) => n + r.failed, 0),
    followed: Math.min(...list.map((r) => r.followed)),
    followFailed: list.reduce((n, r) => n + r.followFailed, 0),
    firstError: list.find((r) => r.firstError)?.firstError,
    eventsPerSecond: median(list.map((r) => r.eventsPerSecond)),
    eventsPerTurn: median(list.map((r) => r.events / Math.max(1, r.completed))),
    msPerEventP50: median(list.map((r) => percentile(r.msPerEvent, 50))),
    followLagP50Ms: list.some((r) => r.followLagMs.length) ? median(list.map((r) => percentile(r.followLagMs, 50))) : undefined,
    followLagP99Ms: list.some((r) => r.followLagMs.length) ? median(list.map((r) => percentile(r.followLagMs, 99))) : undefined,
  });
  const pg = summarize(pgRuns);
  const lite = summarize(sqliteRuns);
  // Two views of "added per event": the wall time of a turn spread over its events (latency under
  // this concurrency), and the throughput cost (1 / events per second).
  const addedUsPerEvent = (pg.msPerEventP50 - lite.msPerEventP50) * 1000;
  const addedCostUsPerEvent = 1e6 / pg.eventsPerSecond - 1e6 / lite.eventsPerSecond;
  const zeroLost = pg.failed + pg.followFailed + lite.failed === 0 && pg.completed === sessions && lite.completed === sessions;

  const rows: [string, string][] = [
    ['PostgreSQL, 2 processes: sessions completed / failed', `${pg.completed} of ${sessions} per run, ${pg.failed} failed ${pg.failed === 0 ? 'OK' : `WRONG (${pg.firstError})`}`],
    ['PostgreSQL: followed on the other process / failed', `${pg.followed} per run, ${pg.followFailed} failed ${pg.followFailed === 0 ? 'OK' : `WRONG (${pg.firstError})`}`],
    ['PostgreSQL: events per second', `${Math.round(pg.eventsPerSecond).toLocaleString('en-US')}  (median of ${pg.runs} runs, ${pg.eventsPerTurn.toFixed(0)} events per turn)`],
    ['SQLite, 1 process: sessions completed / failed', `${lite.completed} of ${sessions} per run, ${lite.failed} failed`],
    ['SQLite: events per second', Math.round(lite.eventsPerSecond).toLocaleString('en-US')],
    ['time per event (turn time ÷ its events), p50: PostgreSQL / SQLite', `${(pg.msPerEventP50 * 1000).toFixed(0)} µs / ${(lite.msPerEventP50 * 1000).toFixed(0)} µs`],
    ['added latency per event on PostgreSQL (from the turn times)', `${addedUsPerEvent.toFixed(0)} µs`],
    ['added throughput cost per event on PostgreSQL (1 / events per second)', `${addedCostUsPerEvent.toFixed(1)} µs`],
    ['follower lag behind the turn (last event) p50 / p99', `${pg.followLagP50Ms?.toFixed(1)} ms / ${pg.followLagP99Ms?.toFixed(1)} ms`],
  ];
  printTable(`PostgreSQL: ${sessions} concurrent sessions × ${DELTAS} deltas over 2 processes, 1 in ${followEvery} followed on the other (vs SQLite, 1 process)`, rows);
  const result = {
    sessions,
    deltasPerTurn: DELTAS,
    followEvery,
    postgres: pg,
    sqlite: lite,
    addedLatencyMicrosecondsPerEvent: addedUsPerEvent,
    addedCostMicrosecondsPerEvent: addedCostUsPerEvent,
    targets: { zeroLostOrDuplicatedEvents: zeroLost },
  };
  writeResultSection('postgresLoad', result);
  return result;
}

// Run alone: `npx tsx src/postgres-load.bench.ts [runs]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runPostgresLoadBench({ runs: Number(process.argv[2] ?? 5) });
}
