/**
 * The server at a model's pace: CPU per event when most writes carry one event. Side by side in
 * one run, each server in a child process of its own on 127.0.0.1, started fresh for every run, the
 * order rotating between runs:
 *   - Lousho (createNodeListener; plain, gzip, br), the AI SDK (streamText with a mock model that
 *     waits between deltas, through its Fetch path and its own Node path), and the paced floor (bare
 *     node:http writing a recorded Lousho turn, one event per write, at the same pace);
 *   - at two paces (load/pace.ts): `tick` (the model yields to the event loop before each delta; a
 *     reader that keeps up gets each delta in a write of its own) and a real model's pace (each
 *     delta 20–50 ms after the one before, thousands of concurrent replies).
 * At the model's pace it also measures the added latency, event produced → bytes written, in runs
 * of their own (the measurement costs CPU: load/latency.ts), and the memory of a streaming session
 * (heap after a full collection, halfway through the turns, less the heap before them).
 */
import { pathToFileURL } from 'node:url';
import { startChild, type Child } from './load/children.js';
import { runLoad, type Encoding, type LoadResult, type Wire } from './load/load-client.js';
import { paceText, type Pace } from './load/pace.js';
import { percentile, writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

type Kind = 'lousho' | 'lousho-nowindow' | 'lousho-gzip' | 'lousho-br' | 'ai-fetch' | 'ai-node' | 'http-floor';
interface ServerSpec {
  kind: Kind;
  wire: Wire;
  label: string;
  encoding?: Encoding;
}
const LOUSHO: ServerSpec = { kind: 'lousho', wire: 'lousho', label: 'Lousho (createNodeListener)' };
const FLOOR: ServerSpec = { kind: 'http-floor', wire: 'lousho', label: 'Floor: bare node:http, one recorded Lousho event per write' };
const SERVERS: ServerSpec[] = [
  LOUSHO,
  { kind: 'lousho-nowindow', wire: 'lousho', label: 'Lousho, writeWindowMs: 0 (every burst written at once)' },
  { kind: 'lousho-gzip', wire: 'lousho', encoding: 'gzip', label: 'Lousho, compression: true, gzip' },
  { kind: 'lousho-br', wire: 'lousho', encoding: 'br', label: 'Lousho, compression: true, br' },
  { kind: 'ai-fetch', wire: 'ai-sdk', label: 'AI SDK (toUIMessageStreamResponse)' },
  { kind: 'ai-node', wire: 'ai-sdk', label: 'AI SDK (pipeUIMessageStreamToResponse)' },
  FLOOR,
];
/** The servers whose latency is measured: plain streams only (a compressed write cannot be read for stamps). */
const LATENCY_KINDS: Kind[] = ['lousho', 'lousho-nowindow', 'ai-node'];

export interface PacedServerBenchOptions {
  /** Runs per server and pace (default 3). */
  runs?: number;
  /**
   * Runs of the AI SDK's servers per pace (default 1): at the model's pace a run of theirs takes
   * minutes on 2 cores (about 10× Lousho's CPU per event), and they are the reference, not the subject.
   */
  aiRuns?: number;
  /** Tick pace: concurrent sessions (default 200) and deltas per reply (default 500). */
  tickSessions?: number;
  tickDeltas?: number;
  /** Model pace: concurrent sessions (default 2,000), deltas per reply (default 100), gap between deltas (default 20–50 ms). */
  modelSessions?: number;
  modelDeltas?: number;
  modelGapMs?: [number, number];
  /** A run's requests still open after this long are destroyed and counted as failed (default 120 s). */
  deadlineMs?: number;
}

interface Sample {
  load: LoadResult;
  cpuPerEventUs: number;
  /** Heap per streaming session, halfway through the turns (model pace only). */
  heapPerSessionBytes?: number;
}

interface Scenario {
  pace: Pace;
  sessions: number;
  deltas: number;
  deadlineMs: number;
}

async function started(spec: ServerSpec, scenario: Scenario, latency = false): Promise<{ server: Child; port: number }> {
  const server = startChild('./server.ts', [spec.kind, paceText(scenario.pace), String(scenario.deltas), ...(latency ? ['latency'] : [])], ['--expose-gc']);
  const { port } = await server.ask<{ port: number }>(undefined, 180_000);
  return { server, port };
}

/** One measured load, after a small warm-up and one unmeasured load of the full size. */
async function oneRun(spec: ServerSpec, scenario: Scenario, run: number): Promise<Sample> {
  const { server, port } = await started(spec, scenario);
  const load = (label: string, sessions = scenario.sessions) =>
    runLoad({ port, wire: spec.wire, sessions, deadlineMs: scenario.deadlineMs, label, encoding: spec.encoding, deltas: scenario.deltas });
  try {
    const warm = await load(`warm${run}`, 50);
    if (warm.failed > 0) throw new Error(`${spec.kind}: warm-up failed: ${warm.firstError}`);
    // Steady state: a full load first at the tick pace (seconds); at the model's pace a tenth of one.
    await load(`full${run}`, scenario.pace.kind === 'model' ? Math.ceil(scenario.sessions / 10) : scenario.sessions);
    const base = await server.ask<{ heapUsed: number }>('heap');
    const before = await server.ask<{ cpuMs: number }>('cpu');
    const measured = load(`load${run}`);
    let heapPerSessionBytes: number | undefined;
    if (scenario.pace.kind === 'model') {
      // Halfway through a turn: every session is streaming.
      const turnMs = (scenario.deltas * (scenario.pace.minMs + scenario.pace.maxMs)) / 2;
      await new Promise((resolve) => setTimeout(resolve, turnMs / 2));
      const mid = await server.ask<{ heapUsed: number }>('heap');
      heapPerSessionBytes = (mid.heapUsed - base.heapUsed) / scenario.sessions;
    }
    const result = await measured;
    const after = await server.ask<{ cpuMs: number }>('cpu');
    return { load: result, cpuPerEventUs: ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, result.events), ...(heapPerSessionBytes === undefined ? {} : { heapPerSessionBytes }) };
  } finally {
    await server.stop();
  }
}

/** Added latency of one server at the model's pace: every stamped delta of one full load, in ms. */
async function latencyRun(spec: ServerSpec, scenario: Scenario, run: number): Promise<number[]> {
  const { server, port } = await started(spec, scenario, true);
  try {
    await runLoad({ port, wire: spec.wire, sessions: 50, deadlineMs: scenario.deadlineMs, label: `lwarm${run}`, deltas: scenario.deltas, stamped: true });
    await server.ask<number[]>('latency');
    // A server that cannot keep up has streams still open at the deadline: the deltas it did write
    // still say how late they were (and the CPU run's row counts its failed streams).
    await runLoad({ port, wire: spec.wire, sessions: scenario.sessions, deadlineMs: scenario.deadlineMs, label: `lat${run}`, deltas: scenario.deltas, stamped: true });
    return await server.ask<number[]>('latency', 180_000);
  } finally {
    await server.stop();
  }
}

function summarize(spec: ServerSpec, scenario: Scenario, list: Sample[]) {
  const heaps = list.map((s) => s.heapPerSessionBytes).filter((h): h is number => h !== undefined);
  return {
    kind: spec.kind,
    label: spec.label,
    encoding: spec.encoding ?? null,
    sessions: scenario.sessions,
    runs: list.length,
    completed: Math.min(...list.map((s) => s.load.completed)),
    failed: list.reduce((n, s) => n + s.load.failed, 0),
    corrupt: list.reduce((n, s) => n + s.load.corrupt, 0),
    firstError: list.find((s) => s.load.firstError)?.load.firstError,
    serverCpuPerEventUs: median(list.map((s) => s.cpuPerEventUs)),
    cpuRuns: list.map((s) => s.cpuPerEventUs),
    wireBytesPerEvent: median(list.map((s) => s.load.wireBytes / Math.max(1, s.load.events))),
    ...(heaps.length ? { heapPerSessionBytes: median(heaps) } : {}),
  };
}

async function measurePace(scenario: Scenario, runs: number, aiRuns: number, withLatency: boolean) {
  const samples = new Map<ServerSpec, Sample[]>(SERVERS.map((s) => [s, []]));
  const latency = new Map<Kind, { p50: number[]; p99: number[] }>(LATENCY_KINDS.map((k) => [k, { p50: [], p99: [] }]));
  for (let run = 0; run < runs; run++) {
    for (let k = 0; k < SERVERS.length; k++) {
      const spec = SERVERS[(run + k) % SERVERS.length]!;
      if (spec.wire === 'ai-sdk' && run >= aiRuns) continue;
      samples.get(spec)!.push(await oneRun(spec, scenario, run));
      if (withLatency && LATENCY_KINDS.includes(spec.kind)) {
        const times = await latencyRun(spec, scenario, run);
        latency.get(spec.kind)!.p50.push(percentile(times, 50));
        latency.get(spec.kind)!.p99.push(percentile(times, 99));
      }
    }
  }
  const servers = SERVERS.map((spec) => {
    const summary = summarize(spec, scenario, samples.get(spec)!);
    const lat = latency.get(spec.kind);
    return lat?.p50.length ? { ...summary, latencyP50Ms: median(lat.p50), latencyP99Ms: median(lat.p99) } : summary;
  });
  const of = (kind: Kind) => servers.find((s) => s.kind === kind)!;
  const lousho = of('lousho');
  const floor = of('http-floor');
  const aiBest = [of('ai-fetch'), of('ai-node')].reduce((a, b) => (b.serverCpuPerEventUs < a.serverCpuPerEventUs ? b : a));
  return {
    pace: paceText(scenario.pace),
    sessions: scenario.sessions,
    deltasPerTurn: scenario.deltas,
    servers,
    overFloor: lousho.serverCpuPerEventUs / floor.serverCpuPerEventUs,
    ofAiSdk: lousho.serverCpuPerEventUs / aiBest.serverCpuPerEventUs,
    comparedWith: aiBest.label,
  };
}

const us = (value: number): string => `${value.toFixed(2)} µs`;

export async function runPacedServerBench(options: PacedServerBenchOptions = {}): Promise<Record<string, unknown>> {
  const runs = options.runs ?? 3;
  const aiRuns = Math.min(runs, options.aiRuns ?? 1);
  const deadlineMs = options.deadlineMs ?? 120_000;
  const [minMs, maxMs] = options.modelGapMs ?? [20, 50];
  const tick = await measurePace({ pace: { kind: 'tick' }, sessions: options.tickSessions ?? 200, deltas: options.tickDeltas ?? 500, deadlineMs }, runs, aiRuns, false);
  const model = await measurePace({ pace: { kind: 'model', minMs, maxMs }, sessions: options.modelSessions ?? 2000, deltas: options.modelDeltas ?? 100, deadlineMs }, runs, aiRuns, true);

  const rows: [string, string][] = [];
  for (const result of [tick, model]) {
    for (const s of result.servers) {
      const latency = 'latencyP50Ms' in s ? `; added latency p50 ${(s.latencyP50Ms as number).toFixed(2)} ms, p99 ${(s.latencyP99Ms as number).toFixed(2)} ms` : '';
      const heap = s.heapPerSessionBytes === undefined ? '' : `; ${Math.round(s.heapPerSessionBytes).toLocaleString('en-US')} B per streaming session`;
      rows.push([`${result.pace}, ${result.sessions} sessions: ${s.label}`, `${us(s.serverCpuPerEventUs)} per event, ${s.wireBytesPerEvent.toFixed(1)} B${latency}${heap} (${s.failed} failed)`]);
    }
    rows.push([`${result.pace}: Lousho / floor (target ≤ 2)`, `${result.overFloor.toFixed(2)}×`]);
    rows.push([`${result.pace}: Lousho / ${result.comparedWith} (target ≤ ⅓)`, `${result.ofAiSdk.toFixed(2)}×`]);
  }
  printTable('The server at a model\'s pace: CPU per event, side by side (medians of runs)', rows);

  const lousho = model.servers.find((s) => s.kind === 'lousho')!;
  const result = {
    runs,
    aiRuns,
    tick,
    model,
    // What one core serves at the model's pace, from Lousho's CPU per event there.
    perCore: { eventsPerSecond: 1e6 / lousho.serverCpuPerEventUs, repliesAt30TokensPerSecond: 1e6 / lousho.serverCpuPerEventUs / 30 },
    targets: {
      tickAtMost2xFloor: tick.overFloor <= 2,
      tickAtMostThirdOfAiSdk: tick.ofAiSdk <= 1 / 3,
      modelAtMost2xFloor: model.overFloor <= 2,
      modelAtMostThirdOfAiSdk: model.ofAiSdk <= 1 / 3,
      latencyP99AtMost5ms: (lousho as { latencyP99Ms?: number }).latencyP99Ms !== undefined && (lousho as { latencyP99Ms: number }).latencyP99Ms <= 5,
      zeroLostEvents: [...tick.servers, ...model.servers].every((s) => !s.kind.startsWith('lousho') || (s.failed === 0 && s.corrupt === 0)),
    },
  };
  writeResultSection('pacedServer', result);
  return result;
}

// Run alone: `npx tsx src/paced-server.bench.ts [runs] [tickSessions] [modelSessions] [modelDeltas]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [runs = 3, tickSessions = 200, modelSessions = 2000, modelDeltas = 100] = process.argv.slice(2).map(Number);
  await runPacedServerBench({ runs, tickSessions, modelSessions, modelDeltas });
}
