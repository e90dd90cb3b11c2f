import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAgent, type AgentStreamEvent, type Message } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { memoryStore } from '@lousho/core';
import { scriptedProvider, workTool, type ModelRequestLog } from '@lousho/test-kit/durable';
import { readBack, reduceAll, shown } from '@lousho/test-kit/durable';

/**
 * The crash test: a child process runs a multi-step job on a SQLite file and is killed with SIGKILL
 * at seeded random moments; each restart resumes it. Checked after every life of the child, against
 * what the file held when that life began, and at the end against a run that never crashed: the
 * transcript, and the UI state, both as `GET /sessions/:id` rebuilds it from the file and as a client
 * that followed every life (reconnecting after each restart) built it live.
 */

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '../..');
const work = mkdtempSync(join(tmpdir(), 'lousho-crash-'));
// The child is bundled once with esbuild (the one tsx runs on), so each life starts in ~100 ms
// instead of ~600 ms of TypeScript loading. It lives inside the package so that it resolves
// better-sqlite3 from the package's own node_modules.
const cacheDir = join(packageDir, 'node_modules/.cache/lousho-crash-test');
const child = join(cacheDir, `crash-child-${process.pid}.mjs`);
beforeAll(async () => {
  const fromTsx = createRequire(createRequire(join(packageDir, 'package.json')).resolve('tsx'));
  const esbuild = fromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  mkdirSync(cacheDir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(here, 'crash-child.ts')],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@lousho/source'],
    external: ['better-sqlite3'],
    logLevel: 'silent',
  });
});
afterAll(() => {
  rmSync(work, { recursive: true, force: true });
  rmSync(child, { force: true });
});

const KILLS = 50;
const LANES = 2;

/** mulberry32: a small seeded PRNG, so a failing schedule can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Life {
  pid: number;
  killed: boolean;
  finished: boolean;
}

/** Runs the child once; kills it `killAfterMs` after it is ready (undefined: let it finish). `seen`: the last seq the client saw. */
function live(db: string, logDir: string, sessionId: string, killAfterMs: number | undefined, seen = 0): Promise<Life & { ms: number }> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [child, db, logDir, sessionId, String(seen)], {
      cwd: packageDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let killed = false;
    let ready = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const guard = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
      if (!before.includes('ready\n') && out.includes('ready\n')) ready = Date.now();
      if (!before.includes('ready\n') && out.includes('ready\n') && killAfterMs !== undefined) {
        timer = setTimeout(() => {
          killed = proc.kill('SIGKILL');
        }, killAfterMs);
      }
    });
    proc.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code, signal) => {
      clearTimeout(guard);
      if (timer) clearTimeout(timer);
      const finished = /done (stop|already-finished)/.test(out);
      if (!finished && signal !== 'SIGKILL') reject(new Error(`child exited with ${code}: ${err || out}`));
      else resolvePromise({ pid: proc.pid!, killed: killed && !finished, finished, ms: Date.now() - ready });
    });
  });
}

/** What the file holds between two lives of the child. */
function persisted(db: string, sessionId: string): Message[] {
  if (!existsSync(db)) return [];
  const store = new SqliteStore(db);
  try {
    return store.checkpoints.load(sessionId)?.messages ?? [];
  } finally {
    store.close();
  }
}

function readLog<T>(file: string): T[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as T];
      } catch {
        return []; // a line cut short by the kill
      }
    });
}

function resultIds(messages: readonly Message[]): Set<string> {
  return new Set(messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId!));
}

it(`resumes a run killed with SIGKILL at ${KILLS} seeded random points: every call has exactly one result, nothing is duplicated or lost, the UI shows what it would have`, async () => {
  const referenceAgent = createAgent({ provider: scriptedProvider({ streamCalls: true }), tools: [workTool()], store: memoryStore(), maxSteps: 50 });
  const referenceEvents: AgentStreamEvent[] = [];
  referenceAgent.sessions.subscribe('ref', (event) => referenceEvents.push(event));
  const reference = (await referenceAgent.send('Start the job', { sessionId: 'ref' })).messages;
  expect(reference.filter((m) => m.role === 'tool').length).toBeGreaterThan(8);
  const referenceUI = shown(await readBack(referenceAgent, 'ref'));
  expect(shown(reduceAll(referenceEvents))).toEqual(referenceUI);

  // Kill points spread over one whole life of the job on this machine, however fast it is today.
  const timing = mkdtempSync(join(work, 'timing-'));
  const maxKillDelayMs = Math.max(50, (await live(join(timing, 'store.db'), timing, 'timing', undefined)).ms);

  let kills = 0;
  let sessions = 0;
  let lives = 0;
  let midRun = 0;
  const problems: string[] = [];

  const lane = async (laneIndex: number) => {
    const random = prng(0x10c5 + laneIndex);
    while (kills < KILLS) {
      const sessionId = `job_${laneIndex}_${sessions++}`;
      const dir = mkdtempSync(join(work, `${sessionId}-`));
      const db = join(dir, 'store.db');
      for (let life = 0; ; life++) {
        const before = persisted(db, sessionId);
        const done = resultIds(before);
        const wantKill = kills < KILLS && life < 12;
        const seen = readLog<AgentStreamEvent>(join(dir, 'events.log')).reduce((last, event) => Math.max(last, event.seq), 0);
        const outcome = await live(db, dir, sessionId, wantKill ? Math.floor(random() * maxKillDelayMs) : undefined, seen);
        lives++;
        if (outcome.killed) kills++;
        // This life never asked the model for a turn the file already had, and never re-ran a recorded call.
        for (const request of readLog<ModelRequestLog>(join(dir, 'models.log')).filter((r) => r.pid === outcome.pid)) {
          if (request.prefixLen < before.length) problems.push(`${sessionId} life ${life}: model asked again at ${request.prefixLen} (file had ${before.length})`);
        }
        for (const run of readLog<{ pid: number; toolCallId: string }>(join(dir, 'tools.log')).filter((r) => r.pid === outcome.pid)) {
          if (done.has(run.toolCallId)) problems.push(`${sessionId} life ${life}: ${run.toolCallId} ran again after its result was stored`);
        }
        // A kill after this life had stored something of its own, with the job not finished: a kill mid-run.
        if (outcome.killed && persisted(db, sessionId).length > before.length) midRun++;
        if (outcome.finished) break;
      }
      const final = persisted(db, sessionId);
      if (JSON.stringify(final) !== JSON.stringify(reference)) problems.push(`${sessionId}: final transcript differs from the uninterrupted run`);
      // The UI: no reply shown twice, no call left streaming, nothing lost, read back or followed live.
      const store = new SqliteStore(db);
      try {
        const readFromFile = shown(await readBack(createAgent({ provider: scriptedProvider(), tools: [workTool()], store, maxSteps: 50 }), sessionId));
        if (JSON.stringify(readFromFile) !== JSON.stringify(referenceUI)) problems.push(`${sessionId}: the UI state read back differs from the uninterrupted run's`);
      } finally {
        store.close();
      }
      const followed = shown(reduceAll(readLog<AgentStreamEvent>(join(dir, 'events.log'))));
      if (JSON.stringify(followed) !== JSON.stringify(referenceUI)) problems.push(`${sessionId}: the UI state a client followed live differs from the uninterrupted run's`);
      const calls = final.flatMap((m) => m.toolCalls ?? []).map((c) => c.id);
      const results = final.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
      expect(results.slice().sort()).toEqual(calls.slice().sort());
      const executed = new Set(readLog<{ toolCallId: string }>(join(dir, 'tools.log')).map((r) => r.toolCallId));
      for (const id of calls) if (!executed.has(id)) problems.push(`${sessionId}: ${id} has a result but never ran`);
    }
  };

  await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
  console.log(`crash test: ${kills} kills (${midRun} after the life had checkpointed progress) over ${lives} lives of ${sessions} jobs, kill delays up to ${maxKillDelayMs} ms`);
  expect(problems).toEqual([]);
  expect(kills).toBeGreaterThanOrEqual(KILLS);
  expect(midRun).toBeGreaterThanOrEqual(KILLS / 3);
}, 180_000);
