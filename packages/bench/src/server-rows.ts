/**
 * Lousho's server against the floor, paced and burst, side by side in one run: a short check of
 * the targets of the server benchmarks (paced CPU per event ≤ 2× the paced floor, burst ≤ 2.5 µs
 * per event, an idle session ≤ 6 KB) without the AI SDK's and the compressed rows, which make
 * `paced-server.bench.ts` and `server-load.bench.ts` take most of an hour on 2 cores.
 *
 *   npx tsx src/server-rows.ts [runs=3] [tickSessions=200] [modelSessions=2000] [modelDeltas=50] [burstSessions=1000]
 *
 * Each server runs in a child process of its own, fresh for every run, measured as those two
 * benchmarks measure it (a warm-up, unmeasured full loads, then one measured load; CPU from the
 * child's own `process.cpuUsage()`); the order rotates between runs. Medians of the runs.
 */
import { startChild } from './load/children.js';
import { runLoad } from './load/load-client.js';
import { DELTAS } from './load/mock-models.js';
import { median, printTable } from './stats.js';

type Kind = 'lousho' | 'http-floor';
interface Row {
  group: 'tick' | 'model' | 'burst';
  kind: Kind;
  pace: string;
  sessions: number;
  deltas: number;
  /** Unmeasured full loads before the measured one (model pace: one of a tenth of the sessions). */
  warmLoads: number;
}

async function measure(row: Row, run: number): Promise<{ cpuPerEventUs: number; failed: number; corrupt: number; wallMs: number }> {
  const server = startChild('./server.ts', [row.kind, row.pace, String(row.deltas)], ['--expose-gc']);
  try {
    const { port } = await server.ask<{ port: number }>(undefined, 180_000);
    const load = (label: string, sessions: number) => runLoad({ port, wire: 'lousho', sessions, deadlineMs: 120_000, label, deltas: row.deltas });
    const warm = await load(`warm${run}`, 50);
    if (warm.failed > 0) throw new Error(`${row.kind}: warm-up failed: ${warm.firstError}`);
    for (let w = 0; w < row.warmLoads; w++) await load(`full${run}_${w}`, row.group === 'model' ? Math.ceil(row.sessions / 10) : row.sessions);
    const before = await server.ask<{ cpuMs: number }>('cpu');
    const result = await load(`load${run}`, row.sessions);
    const after = await server.ask<{ cpuMs: number }>('cpu');
    return { cpuPerEventUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.events), failed: result.failed, corrupt: result.corrupt, wallMs: result.wallMs };
  } finally {
    await server.stop();
  }
}

async function idleBytes(): Promise<number> {
  const child = startChild('./idle-memory.ts', ['1000', String(DELTAS)], ['--expose-gc']);
  try {
    return (await child.ask<{ bytesPerSession: number }>(undefined, 120_000)).bytesPerSession;
  } finally {
    await child.stop();
  }
}

const [runs = 3, tickSessions = 200, modelSessions = 2000, modelDeltas = 50, burstSessions = 1000] = process.argv.slice(2).map(Number);
const rows: Row[] = [];
for (const kind of ['lousho', 'http-floor'] as const) {
  rows.push({ group: 'tick', kind, pace: 'tick', sessions: tickSessions, deltas: 500, warmLoads: 1 });
  rows.push({ group: 'model', kind, pace: 'model:20-50', sessions: modelSessions, deltas: modelDeltas, warmLoads: 1 });
  rows.push({ group: 'burst', kind, pace: 'burst', sessions: burstSessions, deltas: DELTAS, warmLoads: 3 });
}
const samples = new Map<Row, { cpuPerEventUs: number; failed: number; corrupt: number; wallMs: number }[]>(rows.map((r) => [r, []]));
const idle: number[] = [];
for (let run = 0; run < runs; run++) {
  for (let k = 0; k < rows.length; k++) {
    const row = rows[(run + k) % rows.length]!;
    const sample = await measure(row, run);
    samples.get(row)!.push(sample);
    console.log(`run ${run} ${row.group} ${row.kind}: ${sample.cpuPerEventUs.toFixed(2)} µs per event, ${sample.failed} failed, ${(sample.wallMs / 1000).toFixed(1)} s`);
  }
  idle.push(await idleBytes());
}
const table: [string, string][] = [];
for (const group of ['tick', 'model', 'burst'] as const) {
  const of = (kind: Kind) => rows.find((r) => r.group === group && r.kind === kind)!;
  const [lousho, floor] = [samples.get(of('lousho'))!, samples.get(of('http-floor'))!];
  const cpu = (list: typeof lousho) => median(list.map((s) => s.cpuPerEventUs));
  const runsOf = (list: typeof lousho) => list.map((s) => s.cpuPerEventUs.toFixed(1)).join(', ');
  const failed = lousho.reduce((n, s) => n + s.failed + s.corrupt, 0);
  table.push([`${group} (${of('lousho').sessions} sessions × ${of('lousho').deltas} deltas): Lousho`, `${cpu(lousho).toFixed(2)} µs per event (runs ${runsOf(lousho)}; ${failed} failed or corrupt)`]);
  table.push([`${group}: floor`, `${cpu(floor).toFixed(2)} µs per event (runs ${runsOf(floor)})`]);
  table.push([`${group}: Lousho / floor`, `${(cpu(lousho) / cpu(floor)).toFixed(2)}×`]);
}
table.push(['Idle session (1,000 sessions, one 500-delta turn each)', `${Math.round(median(idle)).toLocaleString('en-US')} B (runs ${idle.map((b) => Math.round(b)).join(', ')})`]);
printTable(`Lousho's server against the floor, side by side (medians of ${runs} runs)`, table);
