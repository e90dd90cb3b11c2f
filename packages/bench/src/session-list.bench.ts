/**
 * Thread-list benchmark (issue 47, item 1): listing a page of a principal's sessions among 100,000.
 *
 * 100,000 sessions in one store, alternating between two principals (50,000 each). Timed: the first
 * page of 20 for one principal, and a page from deep inside (a cursor half way down the list). Each
 * is timed 20 times per run, 5 runs; the median of the run medians is reported. SQLite on a
 * temporary file always; PostgreSQL when DATABASE_URL is set (skipped otherwise). Target: well
 * under 50 ms a page (an index range scan on (owner, updated_at, id)).
 *
 *   npx tsx --conditions @lousho/source packages/bench/src/session-list.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionStore } from '@lousho/build-ai-agent';
import { SqliteStore } from '@lousho/build-ai-agent/sqlite';
import { PostgresStore } from '@lousho/build-ai-agent/postgres';
import { median, printTable } from './stats.js';

const SESSIONS = 100_000;
const RUNS = 5;
const CALLS = 20;
const LIMIT = 20;

async function fill(sessions: SessionStore, batch: number): Promise<void> {
  for (let i = 0; i < SESSIONS; i += batch) {
    const creates: unknown[] = [];
    for (let j = i; j < Math.min(i + batch, SESSIONS); j++) creates.push(sessions.create(`s${String(j).padStart(6, '0')}`, { owner: j % 2 ? 'alice' : 'bob' }));
    await Promise.all(creates);
  }
}

/** The median time (ms) of a page call, first page and deep page, median over runs. */
async function timePages(sessions: SessionStore): Promise<{ first: number; deep: number }> {
  const listPage = sessions.listPage!.bind(sessions);
  // A cursor half way down alice's 50,000: page through with the largest pages to find it.
  let cursor: string | undefined;
  for (let i = 0; i < 250; i++) cursor = (await listPage({ owner: 'alice', limit: 100, ...(cursor ? { cursor } : {}) })).nextCursor;
  const runs = { first: [] as number[], deep: [] as number[] };
  for (let run = 0; run < RUNS; run++) {
    for (const [name, query] of [
      ['first', { owner: 'alice', limit: LIMIT }],
      ['deep', { owner: 'alice', limit: LIMIT, cursor: cursor! }],
    ] as const) {
      const times: number[] = [];
      for (let call = 0; call < CALLS; call++) {
        const start = performance.now();
        const page = await listPage(query);
        times.push(performance.now() - start);
        if (page.sessions.length !== LIMIT) throw new Error(`expected a full page, got ${page.sessions.length}`);
      }
      runs[name].push(median(times));
    }
  }
  return { first: median(runs.first), deep: median(runs.deep) };
}

export async function runSessionListBench(): Promise<Record<string, { first: number; deep: number }>> {
  const results: Record<string, { first: number; deep: number }> = {};
  const dir = mkdtempSync(join(tmpdir(), 'lousho-bench-list-'));
  try {
    const store = new SqliteStore(join(dir, 'sessions.db'));
    const filled = performance.now();
    await fill(store.sessions, 1000);
    console.log(`\nsession list: SQLite filled with ${SESSIONS} sessions in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
    results.SQLite = await timePages(store.sessions);
    store.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const url = process.env.DATABASE_URL;
  if (url) {
    const schema = `bench_list_${process.pid}`;
    const store = await PostgresStore.connect({ connectionString: url, schema });
    try {
      const filled = performance.now();
      await fill(store.sessions, 200);
      console.log(`session list: PostgreSQL filled with ${SESSIONS} sessions in ${((performance.now() - filled) / 1000).toFixed(1)} s`);
      results.PostgreSQL = await timePages(store.sessions);
    } finally {
      await store.close();
    }
  } else {
    console.log('session list: PostgreSQL skipped (DATABASE_URL is not set).');
  }
  printTable(
    `Listing a page of ${LIMIT} of one principal's sessions among ${SESSIONS} (median of ${RUNS} runs × ${CALLS} calls)`,
    Object.entries(results).map(([store, r]) => [store, `first page ${r.first.toFixed(3)} ms, page 1,250 of 2,500 ${r.deep.toFixed(3)} ms`]),
  );
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await runSessionListBench();
