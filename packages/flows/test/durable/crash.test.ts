import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryStore, type ToolCallRecord } from '@lousho/core';
import { SqliteStore } from '@lousho/sqlite';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FlowExecutor } from '../../src/index.js';
import { crashFlow } from './fixtures/crash-flow.js';

/**
 * The flow crash test: a child process runs a job flow on a SQLite file and is killed with SIGKILL
 * at seeded random moments; each restart runs it again with the same session and input, which goes
 * on from the checkpoint. After every life: no node (or branch) whose record was in the file ran
 * again. At the end: the records are those of an uninterrupted run, each once, and every recorded
 * node ran.
 */

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = resolve(here, '../..');
const work = mkdtempSync(join(tmpdir(), 'lousho-flow-crash-'));
// Bundled once with esbuild (the one tsx runs on), so each life starts fast; inside the package so
// it resolves better-sqlite3 from the package's own node_modules.
const cacheDir = join(packageDir, 'node_modules/.cache/lousho-flow-crash-test');
const child = join(cacheDir, `crash-child-${process.pid}.mjs`);
beforeAll(async () => {
  const fromTsx = createRequire(createRequire(join(packageDir, 'package.json')).resolve('tsx'));
  const esbuild = fromTsx('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  mkdirSync(cacheDir, { recursive: true });
  await esbuild.build({
    entryPoints: [join(here, 'fixtures/crash-child.ts')],
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
const MAX_KILL_DELAY_MS = 400;

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

/** Runs the child once; kills it `killAfterMs` after it is ready (undefined: let it finish). */
function live(db: string, logDir: string, sessionId: string, killAfterMs: number | undefined): Promise<Life> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [child, db, logDir, sessionId], { cwd: packageDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killed = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const guard = setTimeout(() => proc.kill('SIGKILL'), 30_000);
    proc.stdout.on('data', (chunk: Buffer) => {
      const before = out;
      out += chunk.toString();
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
      else resolvePromise({ pid: proc.pid!, killed: killed && !finished, finished });
    });
  });
}

/** The node records the file holds between two lives of the child. */
function persisted(db: string, sessionId: string): { records: ToolCallRecord[]; state: string | undefined } {
  if (!existsSync(db)) return { records: [], state: undefined };
  const store = new SqliteStore(db);
  try {
    const run = store.checkpoints.load(sessionId)?.run;
    return { records: run?.toolCalls ?? [], state: run?.state };
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

it(`goes on with a flow killed with SIGKILL at ${KILLS} seeded random points: no finished node runs again, none is lost`, async () => {
  // The uninterrupted run: which records a finished job has.
  const store = memoryStore();
  const referenceFlow = crashFlow(() => {});
  let reference = await FlowExecutor.run(referenceFlow, { order: 7 }, { sessionId: 'ref', store });
  while (reference.finishReason === 'awaiting-approval') reference = await FlowExecutor.resolve(referenceFlow, { approvalId: reference.approvalId!, approved: true }, { store });
  const referenceKeys = (await store.checkpoints.load('ref'))!.run!.toolCalls.map((r) => r.toolCallId).sort();
  expect(referenceKeys).toHaveLength(17);

  let kills = 0;
  let jobs = 0;
  let lives = 0;
  let midRun = 0;
  const problems: string[] = [];

  // Under load a child may be killed before it checkpoints anything; such kills test less, so the
  // lanes go on (up to 3× the kills) until a third of them landed mid-run.
  const wantMore = () => (kills < KILLS || midRun < KILLS / 3) && kills < KILLS * 3;
  const lane = async (laneIndex: number) => {
    const random = prng(0xf10 + laneIndex);
    while (wantMore()) {
      const sessionId = `job_${laneIndex}_${jobs++}`;
      const dir = mkdtempSync(join(work, `${sessionId}-`));
      const db = join(dir, 'store.db');
      for (let life = 0; ; life++) {
        const before = persisted(db, sessionId).records;
        const done = new Set(before.map((r) => r.toolCallId));
        const wantKill = wantMore() && life < 12;
        const outcome = await live(db, dir, sessionId, wantKill ? Math.floor(random() * MAX_KILL_DELAY_MS) : undefined);
        lives++;
        if (outcome.killed) kills++;
        // This life never ran a node whose record the file already had.
        for (const ran of readLog<{ pid: number; key: string }>(join(dir, 'nodes.log')).filter((r) => r.pid === outcome.pid)) {
          if (done.has(ran.key)) problems.push(`${sessionId} life ${life}: ${ran.key} ran again after its record was stored`);
        }
        if (outcome.killed && persisted(db, sessionId).records.length > before.length) midRun++;
        if (outcome.finished) break;
      }
      const final = persisted(db, sessionId);
      const keys = final.records.map((r) => r.toolCallId);
      if (final.state !== 'done') problems.push(`${sessionId}: ended in state ${String(final.state)}`);
      if (JSON.stringify(keys.slice().sort()) !== JSON.stringify(referenceKeys)) problems.push(`${sessionId}: records ${keys.join(',')} differ from the uninterrupted run's`);
      if (new Set(keys).size !== keys.length) problems.push(`${sessionId}: a record is stored twice`);
      // Every recorded node ran (the approval decision and the join of the checks are the executor's own records).
      const ranKeys = new Set(readLog<{ key: string }>(join(dir, 'nodes.log')).map((r) => r.key));
      for (const key of keys) if (!ranKeys.has(key) && !/^(checks|again(#\d)?|approve)$/.test(key)) problems.push(`${sessionId}: ${key} is recorded but never ran`);
    }
  };

  await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i)));
  console.log(`flow crash test: ${kills} kills (${midRun} after the life had checkpointed progress) over ${lives} lives of ${jobs} jobs`);
  expect(problems).toEqual([]);
  expect(kills).toBeGreaterThanOrEqual(KILLS);
  expect(midRun).toBeGreaterThanOrEqual(KILLS / 3);
}, 240_000);
