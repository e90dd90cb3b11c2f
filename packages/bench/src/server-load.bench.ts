/**
 * Server under load (issue: "Performance under load and in the browser, side by side with the AI SDK").
 *
 * Each server runs in a child process of its own on 127.0.0.1, started fresh for every run; this
 * process is the load generator. Per run and server: a warm-up of 50 turns, then 1,000 concurrent
 * sessions each sending one turn and reading its SSE stream to the end, four times (three loads
 * unmeasured, then the measured one: a warm server), every stream checked end to end (no lost,
 * duplicated or reordered event; the text equals the 500 deltas). Side by side:
 *   - Lousho: the demo agent with a provider that streams 500 deltas at once, behind createNodeListener();
 *   - AI SDK: streamText() with MockLanguageModelV3 (from `ai/test`, the same 500 deltas), answered
 *     with toUIMessageStreamResponse() through the same Fetch-to-Node adapter, and with the AI SDK's
 *     own Node path, pipeUIMessageStreamToResponse(). The faster of the two is the comparison.
 * The order of the servers rotates between runs. Then memory per idle session: a child process with
 * --expose-gc runs one turn in each of 1,000 sessions and reports the heap growth per session.
 */
import { pathToFileURL } from 'node:url';
import { startChild } from './load/children.js';
import { runLoad, type Encoding, type LoadResult, type Wire } from './load/load-client.js';
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
  /** Concurrent sessions of the paced runs (the provider yields before each delta; default 200). */
  pacedSessions?: number;
  /**
   * Full loads (of the measured size) each server runs, unmeasured, before the measured one (default
   * 3): the first loads of a fresh process cost up to 2× the later ones (JIT, heap growth), for the
   * bare floor as much as for Lousho, and a server in production is warm.
   */
  warmLoads?: number;
}

type Kind = 'lousho' | 'lousho-gzip' | 'lousho-br' | 'ai-fetch' | 'ai-node' | 'http-floor';
interface ServerSpec {
  kind: Kind;
  wire: Wire;
  label: string;
  encoding?: Encoding;
  paced?: boolean;
}
const SERVERS: ServerSpec[] = [
  { kind: 'lousho', wire: 'lousho', label: 'Lousho (createNodeListener)' },
  { kind: 'ai-fetch', wire: 'ai-sdk', label: 'AI SDK (toUIMessageStreamResponse)' },
  { kind: 'ai-node', wire: 'ai-sdk', label: 'AI SDK (pipeUIMessageStreamToResponse)' },
  { kind: 'lousho-gzip', wire: 'lousho', encoding: 'gzip', label: 'Lousho, compression: true, gzip' },
  { kind: 'lousho-br', wire: 'lousho', encoding: 'br', label: 'Lousho, compression: true, br' },
  // What the connections and writes of a turn cost any server here: CPU per event varies with the
  // machine by up to 3× from day to day (docs/benchmarks.md), Lousho's ratio to this much less.
  { kind: 'http-floor', wire: 'lousho', label: 'Floor: bare node:http writing a recorded Lousho turn' },
];
/** The same Lousho servers with a paced provider: readers keep up, so most writes carry one event. */
const PACED: ServerSpec[] = [
  { kind: 'lousho', wire: 'lousho', paced: true, label: 'Lousho, paced' },
  { kind: 'lousho-gzip', wire: 'lousho', encoding: 'gzip', paced: true, label: 'Lousho, paced, gzip' },
  { kind: 'lousho-br', wire: 'lousho', encoding: 'br', paced: true, label: 'Lousho, paced, br' },
];

interface RunSample {
  load: LoadResult;
  /** Server CPU time per event (µs), from the child's own cpuUsage(). */
  cpuPerEventUs: number;
}

async function oneRun({ kind, wire, encoding, paced }: ServerSpec, sessions: number, deadlineMs: number, run: number, warmLoads: number): Promise<RunSample> {
  const server = startChild('./server.ts', paced ? [kind, 'paced'] : [kind]);
  try {
    const { port } = await server.ask<{ port: number }>(undefined, 180_000);
    const warm = await runLoad({ port, wire, sessions: 50, deadlineMs, label: `warm${run}`, encoding });
    if (warm.failed > 0) throw new Error(`${kind}: warm-up failed: ${warm.firstError}`);
    // Steady state: full loads first, unmeasured (a stream they lose shows in the measured load anyway).
    for (let w = 0; w < warmLoads; w++) await runLoad({ port, wire, sessions, deadlineMs, label: `warm${run}_${w}`, encoding });
    const before = await server.ask<{ cpuMs: number }>('cpu');
    const load = await runLoad({ port, wire, sessions, deadlineMs, label: `load${run}`, encoding });
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
  const pacedSessions = options.pacedSessions ?? 200;
  const warmLoads = options.warmLoads ?? 3;
  const all = [...SERVERS, ...PACED];
  const samples = new Map<ServerSpec, RunSample[]>(all.map((s) => [s, []]));
  const fetchPathRuns = Math.min(runs, options.fetchPathRuns ?? 1);
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < all.length; k++) {
      const spec = all[(run + k) % all.length]!;
      if (spec.kind === 'ai-fetch' && run >= fetchPathRuns) continue;
      samples.get(spec)!.push(await oneRun(spec, spec.paced ? pacedSessions : sessions, deadlineMs, run, warmLoads));
    }
  }

  const summarize = (spec: ServerSpec) => {
    const { kind, label } = spec;
    const list = samples.get(spec)!;
    return {
      kind,
      label,
      encoding: spec.encoding ?? null,
      paced: spec.paced ?? false,
      sessions: spec.paced ? pacedSessions : sessions,
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
      wireBytesPerEvent: median(list.map((s) => s.load.wireBytes / Math.max(1, s.load.events))),
    };
  };
  const summary = SERVERS.map(summarize);
  const paced = PACED.map(summarize);
  const lousho = summary[0]!;
  const aiBest = summary.filter((s) => s.kind.startsWith('ai')).reduce((a, b) => (b.eventsPerSecond > a.eventsPerSecond ? b : a));
  const throughputRatio = lousho.eventsPerSecond / aiBest.eventsPerSecond;
  const floor = summary.find((s) => s.kind === 'http-floor');
  const overFloor = floor && lousho.serverCpuPerEventUs / floor.serverCpuPerEventUs;

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
    rows.push([`${s.label}: bytes on the wire per event`, `${s.wireBytesPerEvent.toFixed(1)} B`]);
  }
  for (const s of paced) {
    rows.push([`${s.label} (${pacedSessions} sessions): server CPU per event`, `${s.serverCpuPerEventUs.toFixed(2)} µs  (${s.failed} failed, median of ${s.runs} runs)`]);
    rows.push([`${s.label} (${pacedSessions} sessions): bytes on the wire per event`, `${s.wireBytesPerEvent.toFixed(1)} B`]);
  }
  rows.push([`server CPU per event at ${sessions.toLocaleString('en-US')} sessions (target ≤ 2.5 µs)`, `${lousho.serverCpuPerEventUs.toFixed(2)} µs ${flag(lousho.serverCpuPerEventUs <= 2.5)}`]);
  if (floor) rows.push(['server CPU per event, Lousho / the floor (same bytes, same writes, no agent)', `${overFloor!.toFixed(2)}× (floor ${floor.serverCpuPerEventUs.toFixed(2)} µs)`]);
  rows.push([`throughput Lousho / ${aiBest.label} (target ≥ 2)`, `${throughputRatio.toFixed(2)} ${flag(throughputRatio >= 2)}`]);
  rows.push([`memory per idle session, one ${DELTAS}-delta turn (target ≤ 6 KB)`, `${kb(bytesPerIdle)} ${flag(bytesPerIdle <= 6 * 1024)}  (${memory[0]?.eventsPerSession} events kept per session)`]);
  rows.push(['memory per idle session, one 1-delta turn (for comparison)', kb(bytesPerIdleShort)]);
  rows.push([`memory per idle session, five ${DELTAS}-delta turns (for comparison)`, `${kb(fiveTurns.bytesPerSession)}  (${fiveTurns.eventsPerSession} events kept per session)`]);
  printTable(`Server under load: ${sessions.toLocaleString('en-US')} concurrent sessions × ${DELTAS} deltas on 127.0.0.1 (medians of runs)`, rows);

  const result = {
    runs,
    sessions,
    deltasPerTurn: DELTAS,
    servers: summary,
    paced,
    pacedSessions,
    warmLoads,
    throughputRatio,
    comparedWith: aiBest.label,
    ...(floor ? { floorCpuPerEventUs: floor.serverCpuPerEventUs, cpuOverFloor: overFloor } : {}),
    idleSession: {
      bytes: bytesPerIdle,
      bytesOneDeltaTurn: bytesPerIdleShort,
      bytesFiveTurns: fiveTurns.bytesPerSession,
      eventsKeptFiveTurns: fiveTurns.eventsPerSession,
      eventsKept: memory[0]?.eventsPerSession,
      sessions: idleSessions,
    },
    targets: {
      // (Lousho's servers: an AI SDK stream still open at the deadline is counted as failed in its own row.)
      zeroLostEvents: summary.every((s) => !s.kind.startsWith('lousho') || (s.failed === 0 && s.corrupt === 0)),
      throughputAtLeast2x: throughputRatio >= 2,
      idleSessionAtMost20KB: bytesPerIdle <= 20 * 1024,
      idleSessionAtMost6KB: bytesPerIdle <= 6 * 1024,
      cpuPerEventAtMost2_5us: lousho.serverCpuPerEventUs <= 2.5,
    },
  };
  writeResultSection('serverLoad', result);
  return result;
}

// Run alone: `npx tsx src/server-load.bench.ts [runs] [sessions] [deadlineMs] [pacedSessions] [warmLoads]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  // Arguments: runs (5), concurrent sessions (1,000), the deadline of a run in ms (60,000), paced sessions (200), unmeasured full loads first (3).
  const [runs = 5, sessions = 1000, deadlineMs = 60_000, pacedSessions = 200, warmLoads = 3] = process.argv.slice(2).map(Number);
  await runServerLoadBench({ runs, sessions, deadlineMs, pacedSessions, warmLoads });
}
