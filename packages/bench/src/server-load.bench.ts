/**
 * Server under load (issue: "Performance under load and in the browser, side by side with the AI SDK").
 *
 * Each server runs in a child process of its own on 127.0.0.1, started fresh for every run; this
 * process is the load generator. Per run and server: a warm-up of 50 turns, then 1,000 concurrent
 * sessions each sending one turn and reading its SSE stream to the end, every stream checked end to
 * end (no lost, duplicated or reordered event; the text equals the 500 deltas). Side by side:
 *   - Lousho: the demo agent with a provider that streams 500 deltas at once, behind createNodeListener();
 *   - AI SDK: streamText() with MockLanguageModelV3 (from `ai/test`, the same 500 deltas), answered
 *     with toUIMessageStreamResponse() through the same Fetch-to-Node adapter, and with the AI SDK's
 *     own Node path, pipeUIMessageStreamToResponse(). The faster of the two is the comparison.
 * The order of the servers rotates between runs. Then memory per idle session: a child process with
 * --expose-gc runs one turn in each of 1,000 sessions and reports the heap growth per session.
 */
import { pathToFileURL } from 'node:url';
import { startChild } from './load/children.js';
import { runLoad, type LoadResult, type Wire } from './load/load-client.js';
import { DELTAS } from './load/mock-models.js';
import { percentile, writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

export interface ServerLoadBenchOptions {
  /** Runs per server (default 5). */
  runs?: number;
  /**
   * Runs of the AI SDK's Fetch path (default 1): it is the slower AI SDK path (the comparison uses
   * the faster one, which gets all `runs`), and each of its runs takes about 40 s on 2 cores.
   */
  fetchPathRuns?: number;
  /** Concurrent sessions per run (default 1,000). */
  sessions?: number;
  /** Idle sessions for the memory measurement (default 1,000). */
  idleSessions?: number;
  /** A run's requests still open after this long are destroyed and counted as failed (default 60 s). */
  deadlineMs?: number;
}

type Kind = 'lousho' | 'ai-fetch' | 'ai-node';
const SERVERS: { kind: Kind; wire: Wire; label: string }[] = [
  { kind: 'lousho', wire: 'lousho', label: 'Lousho (createNodeListener)' },
  { kind: 'ai-fetch', wire: 'ai-sdk', label: 'AI SDK (toUIMessageStreamResponse)' },
  { kind: 'ai-node', wire: 'ai-sdk', label: 'AI SDK (pipeUIMessageStreamToResponse)' },
];

interface RunSample {
  load: LoadResult;
  /** Server CPU time per event (µs), from the child's own cpuUsage(). */
  cpuPerEventUs: number;
}

async function oneRun(kind: Kind, wire: Wire, sessions: number, deadlineMs: number, run: number): Promise<RunSample> {
  const server = startChild('./server.ts', [kind]);
  try {
    const { port } = await server.ask<{ port: number }>(undefined, 30_000);
    const warm = await runLoad({ port, wire, sessions: 50, deadlineMs, label: `warm${run}` });
    if (warm.failed > 0) throw new Error(`${kind}: warm-up failed: ${warm.firstError}`);
    const before = await server.ask<{ cpuMs: number }>('cpu');
    const load = await runLoad({ port, wire, sessions, deadlineMs, label: `load${run}` });
    const after = await server.ask<{ cpuMs: number }>('cpu');
    return { load, cpuPerEventUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, load.events) };
  } finally {
    await server.stop();
  }
}

async function idleMemory(sessions: number, deltas: number, turns = 1): Promise<{ bytesPerSession: number; eventsPerSession: number }> {
  const child = startChild('./idle-memory.ts', [String(sessions), String(deltas), String(turns)], ['--expose-gc']);
  try {
    return await child.ask(undefined, 120_000);
  } finally {
    await child.stop();
  }
}

const flag = (ok: boolean): string => (ok ? 'OK' : 'OVER TARGET');
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

export async function runServerLoadBench(options: ServerLoadBenchOptions = {}): Promise<Record<string, unknown>> {
  const runs = options.runs ?? 5;
  const sessions = options.sessions ?? 1000;
  const idleSessions = options.idleSessions ?? 1000;
  const deadlineMs = options.deadlineMs ?? 60_000;
  const samples = new Map<Kind, RunSample[]>(SERVERS.map((s) => [s.kind, []]));
  const fetchPathRuns = Math.min(runs, options.fetchPathRuns ?? 1);
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < SERVERS.length; k++) {
      const { kind, wire } = SERVERS[(run + k) % SERVERS.length]!;
      if (kind === 'ai-fetch' && run >= fetchPathRuns) continue;
      samples.get(kind)!.push(await oneRun(kind, wire, sessions, deadlineMs, run));
    }
  }

  const summary = SERVERS.map(({ kind, label }) => {
    const list = samples.get(kind)!;
    return {
      kind,
      label,
      runs: list.length,
      completed: Math.min(...list.map((s) => s.load.completed)),
      failed: list.reduce((n, s) => n + s.load.failed, 0),
      corrupt: list.reduce((n, s) => n + s.load.corrupt, 0),
      firstError: list.find((s) => s.load.firstError)?.load.firstError,
      eventsPerTurn: median(list.map((s) => s.load.events / Math.max(1, s.load.completed))),
      eventsPerSecond: median(list.map((s) => s.load.eventsPerSecond)),
      turnsPerSecond: median(list.map((s) => (s.load.completed / s.load.wallMs) * 1000)),
      ttfeP50: median(list.map((s) => percentile(s.load.ttfe, 50))),
      ttfeP99: median(list.map((s) => percentile(s.load.ttfe, 99))),
      serverCpuPerEventUs: median(list.map((s) => s.cpuPerEventUs)),
    };
  });
  const lousho = summary[0]!;
  const aiBest = summary.slice(1).reduce((a, b) => (b.eventsPerSecond > a.eventsPerSecond ? b : a));
  const throughputRatio = lousho.eventsPerSecond / aiBest.eventsPerSecond;

  const memory: { bytesPerSession: number; eventsPerSession: number }[] = [];
  const memoryShort: number[] = [];
  for (let run = 0; run < runs; run++) memory.push(await idleMemory(idleSessions, DELTAS));
  // For the note on where the memory goes: the same sessions after a 1-delta turn (one run: it varies little).
  memoryShort.push((await idleMemory(idleSessions, 1)).bytesPerSession);
  // A session keeps every turn (its event log and its transcript): what five turns cost (one run).
  const fiveTurns = await idleMemory(Math.ceil(idleSessions / 5), DELTAS, 5);
  const bytesPerIdle = median(memory.map((m) => m.bytesPerSession));
  const bytesPerIdleShort = median(memoryShort);

  const rows: [string, string][] = [];
  for (const s of summary) {
    rows.push([`${s.label}: sessions completed / lost events`, `${s.completed} of ${sessions} per run, ${s.failed} failed, ${s.corrupt} corrupt ${s.failed === 0 ? 'OK' : `WRONG (${s.firstError})`}`]);
    rows.push([`${s.label}: events per second`, `${Math.round(s.eventsPerSecond).toLocaleString('en-US')}  (median of ${s.runs} runs; ${s.turnsPerSecond.toFixed(0)} turns/s, ${s.eventsPerTurn.toFixed(0)} events per turn)`]);
    rows.push([`${s.label}: time to first event p50 / p99`, `${s.ttfeP50.toFixed(0)} ms / ${s.ttfeP99.toFixed(0)} ms`]);
    rows.push([`${s.label}: server CPU per event`, `${s.serverCpuPerEventUs.toFixed(2)} µs`]);
  }
  rows.push([`throughput Lousho / ${aiBest.label} (target ≥ 2)`, `${throughputRatio.toFixed(2)} ${flag(throughputRatio >= 2)}`]);
  rows.push([`memory per idle session, one ${DELTAS}-delta turn (target ≤ 20 KB)`, `${kb(bytesPerIdle)} ${flag(bytesPerIdle <= 20 * 1024)}  (${memory[0]?.eventsPerSession} events kept per session)`]);
  rows.push(['memory per idle session, one 1-delta turn (for comparison)', kb(bytesPerIdleShort)]);
  rows.push([`memory per idle session, five ${DELTAS}-delta turns (for comparison)`, `${kb(fiveTurns.bytesPerSession)}  (${fiveTurns.eventsPerSession} events kept per session)`]);
  printTable(`Server under load: ${sessions.toLocaleString('en-US')} concurrent sessions × ${DELTAS} deltas on 127.0.0.1 (medians of runs)`, rows);

  const result = {
    runs,
    sessions,
    deltasPerTurn: DELTAS,
    servers: summary,
    throughputRatio,
    comparedWith: aiBest.label,
    idleSession: {
      bytes: bytesPerIdle,
      bytesOneDeltaTurn: bytesPerIdleShort,
      bytesFiveTurns: fiveTurns.bytesPerSession,
      eventsKeptFiveTurns: fiveTurns.eventsPerSession,
      eventsKept: memory[0]?.eventsPerSession,
      sessions: idleSessions,
    },
    targets: {
      zeroLostEvents: summary.every((s) => s.failed === 0),
      throughputAtLeast2x: throughputRatio >= 2,
      idleSessionAtMost20KB: bytesPerIdle <= 20 * 1024,
    },
  };
  writeResultSection('serverLoad', result);
  return result;
}

// Run alone: `npx tsx --conditions=@lousho/source src/server-load.bench.ts [runs]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runServerLoadBench({ runs: Number(process.argv[2] ?? 5) });
}
