/**
 * Writes the latest results (results/latest.json) as tables into docs/benchmarks.md (between the
 * `bench:results` markers) and a summary table into README.md (between the `bench:readme`
 * markers); the text around them is left as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RESULTS_FILE } from './results.js';

const DOC = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const README_START = '<!-- bench:readme:start -->';
const README_END = '<!-- bench:readme:end -->';

const n = (value: number, digits = 0): string => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ok = (pass: boolean | undefined): string => (pass === undefined ? '–' : pass ? 'met' : '**missed**');

/** Failed or corrupt streams of Lousho's servers (the target is theirs; the AI SDK's rows say their own). */
const loushoFailed = (load: any): number => load.servers.filter((s: any) => s.kind.startsWith('lousho')).reduce((k: number, s: any) => k + s.failed + s.corrupt, 0);

/** The old code paths that are gone, as measured before the change (docs/benchmarks.md says with which command). */
const UNTRUSTED_BEFORE = {
  oneOf: '12,328 ms (median of 5; 1,699 ms on a quieter run): the nested zod union, 2^20 branch checks',
  pattern: "1,193 ms at 26 a's, doubling per character: hours at 40",
};

export function resultsMarkdown(all: any): string {
  const lines: string[] = [];
  const m = all.machine;
  if (m) lines.push(`Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}, ${m.platform}.`, '');
  const load = all.serverLoad;
  if (load) {
    lines.push(
      `### Server under load (${n(load.sessions)} concurrent sessions × ${load.deltasPerTurn} deltas, ${load.warmLoads ? `after ${load.warmLoads} unmeasured loads per server start, ` : ''}medians of runs, ${load.measuredAt.slice(0, 10)})`,
      '',
      '| Server | Runs | Sessions completed | Failed / corrupt streams | Events per second | Time to first event p50 / p99 | Server CPU per event |',
      '|---|---|---|---|---|---|---|',
    );
    const bytesCell = (s: any): string => (s.wireBytesPerEvent === undefined ? '–' : `${n(s.wireBytesPerEvent, 1)} B`);
    if (load.servers[0]?.wireBytesPerEvent !== undefined) {
      lines[lines.length - 2] = lines.at(-2)!.replace('Server CPU per event |', 'Server CPU per event | Bytes on the wire per event |');
      lines[lines.length - 1] = '|---|---|---|---|---|---|---|---|';
    }
    for (const s of load.servers) {
      const extra = s.wireBytesPerEvent === undefined ? '' : ` ${bytesCell(s)} |`;
      lines.push(`| ${s.label} | ${s.runs} | ${s.completed} of ${load.sessions} | ${s.failed} / ${s.corrupt} | ${n(s.eventsPerSecond)} | ${n(s.ttfeP50)} ms / ${n(s.ttfeP99)} ms | ${n(s.serverCpuPerEventUs, 1)} µs |${extra}`);
    }
    if (load.paced?.length) {
      lines.push(
        '',
        `Paced turns (the provider yields to the event loop before each delta, so readers keep up and most writes carry one event), ${n(load.pacedSessions)} concurrent sessions:`,
        '',
        '| Server | Runs | Sessions completed | Failed streams | Server CPU per event | Bytes on the wire per event |',
        '|---|---|---|---|---|---|',
      );
      for (const s of load.paced) lines.push(`| ${s.label} | ${s.runs} | ${s.completed} of ${s.sessions} | ${s.failed} | ${n(s.serverCpuPerEventUs, 1)} µs | ${bytesCell(s)} |`);
    }
    const lousho = load.servers[0];
    lines.push(
      '',
      '| Target | Result | |',
      '|---|---|---|',
      `| Zero lost, duplicated or reordered events (Lousho's servers; an AI SDK stream still open at the 60 s deadline counts as failed in its row) | ${loushoFailed(load)} failed streams | ${ok(loushoFailed(load) === 0)} |`,
      `| Throughput ≥ 2× the AI SDK's (its faster path: ${load.comparedWith}) | ${n(load.throughputRatio, 2)}× | ${ok(load.targets.throughputAtLeast2x)} |`,
      ...(load.targets.cpuPerEventAtMost2_5us === undefined
        ? []
        : [`| Server CPU per event ≤ 2.5 µs at 1,000 concurrent sessions | ${n(lousho.serverCpuPerEventUs, 1)} µs at ${n(load.sessions)} sessions${load.floorCpuPerEventUs === undefined ? '' : ` (${n(load.cpuOverFloor, 1)}× the floor of this run, ${n(load.floorCpuPerEventUs, 2)} µs: a bare node:http listener writing a recorded Lousho turn)`} | ${load.sessions >= 1000 ? ok(load.targets.cpuPerEventAtMost2_5us) : 'not measured at 1,000 (this run: ' + ok(load.targets.cpuPerEventAtMost2_5us) + ')'} |`]),
      `| Memory per idle session ≤ ${load.targets.idleSessionAtMost6KB === undefined ? '20' : '6'} KB (one ${load.deltasPerTurn}-delta turn each, ${n(load.idleSession.sessions)} sessions) | ${n(load.idleSession.bytes)} B (${load.idleSession.eventsKept} events kept; ${n(load.idleSession.bytesOneDeltaTurn)} B after a 1-delta turn) | ${ok(load.targets.idleSessionAtMost6KB ?? load.targets.idleSessionAtMost20KB)} |`,
      '',
    );
  }
  const paced = all.pacedServer;
  if (paced?.tick) lines.push(...pacedMarkdown(paced));
  const client = all.clientPipeline;
  if (client?.rows?.length) {
    lines.push(
      `### Client pipeline: bytes to final state, side by side with the AI SDK (medians of ${client.runs} runs, ${client.measuredAt.slice(0, 10)})`,
      '',
      `One ~4-character text delta mid-stream, uncompressed: Lousho (lousho.v2) ${client.wireDelta.lousho} B, AI SDK \`text-delta\` chunk ${client.wireDelta.aiSdk} B (target ≤ 57 B: ${ok(client.wireDelta.lousho <= 57)}).`,
      '',
      '| Scenario | Reads | Wire bytes per delta, Lousho / AI SDK | Lousho client | useChat store path (AbstractChat) | useChat / Lousho (target ≥ 5) | Lousho / floor on the AI SDK bytes (target ≤ 1.5) |',
      '|---|---|---|---|---|---|---|',
    );
    for (const r of client.rows) {
      const reads = r.readBytes >= 1024 ? `${r.readBytes / 1024} KiB` : `${r.readBytes} B`;
      lines.push(
        `| ${r.scenario} | ${reads} | ${n(r.loushoBytes / r.deltas, 1)} / ${n(r.aiSdkBytes / r.deltas, 1)} | ${n(r.loushoMs, 1)} ms | ${r.aiSdkChatMs === undefined ? '–' : `${n(r.aiSdkChatMs, 1)} ms`} | ${r.chatRatio === undefined ? '–' : `${n(r.chatRatio, 1)} ${ok(r.chatRatio >= 5)}`} | ${r.floorOfAiSdkBytesRatio === undefined ? '–' : `${n(r.floorOfAiSdkBytesRatio, 2)} ${ok(r.floorOfAiSdkBytesRatio <= 1.5)}`} |`,
      );
    }
    const heap = client.peakHeap;
    if (heap) {
      const mb = (bytes: number): string => `${n(bytes / 1024 / 1024, 1)} MB`;
      lines.push(
        '',
        `Client peak heap, one reply of ${n(heap.deltas)} text deltas (16 KiB reads, a fresh process per pipeline, median of ${heap.runs} run${heap.runs === 1 ? '' : 's'}): Lousho ${mb(heap.lousho.peakBytes)} (wire ${mb(heap.lousho.wireBytes)}, ${mb(heap.lousho.retainedBytes)} kept after GC), AI SDK chat state ${mb(heap.aiSdk.peakBytes)} (wire ${mb(heap.aiSdk.wireBytes)}, ${mb(heap.aiSdk.retainedBytes)} kept); ratio ${n(heap.ratio, 2)} (target ≤ 1: ${ok(heap.ratio <= 1)}).`,
      );
    }
    lines.push('');
  }
  const tracing = all.tracing;
  if (tracing?.noop) {
    const row = (label: string, t: { cpuMedianMs: number; wallMedianMs: number }) =>
      `| ${label} | ${n((t.cpuMedianMs / tracing.steps) * 1000, 1)} µs | ${n((t.wallMedianMs / tracing.steps) * 1000, 1)} µs |`;
    lines.push(
      `### Tracing overhead (${n(tracing.steps)}-step run, ${tracing.runs} rounds of every variant back to back, ${tracing.measuredAt.slice(0, 10)})`,
      '',
      '| Tracing | CPU time per step (median) | Wall time per step (median) |',
      '|---|---|---|',
      row('off', tracing.off),
      row('off again (control: the machine\'s noise)', tracing.control),
      row('on, OpenTelemetry no-op tracer (`createOtelTraceExporter()`, no SDK)', tracing.noop),
      row('on, OpenTelemetry SDK recording every span (no exporter)', tracing.recording),
      '',
      '| Target | Result | |',
      '|---|---|---|',
      `| Tracing on with a no-op tracer adds under 5 % (median of the rounds' ratios) | CPU ${n(tracing.ratio, 3)}, wall ${n(tracing.wallRatio, 3)} (control: CPU ${n(tracing.controlRatio, 3)}) | ${ok(tracing.ratio < 1.05)} |`,
      `| (no target) Tracing on, recording every span | CPU ${n(tracing.recordingRatio, 3)} | – |`,
      '',
    );
  }
  const untrusted = all.untrustedInput;
  if (untrusted) {
    const ms = (value: number): string => `${value < 0.1 ? n(value, 4) : n(value, 2)} ms`;
    lines.push(
      `### Untrusted input: one check each (medians of ${untrusted.runs} runs, ${untrusted.measuredAt.slice(0, 10)})`,
      '',
      '| Check | Before (measured before the change, see below) | After | Target |',
      '|---|---|---|---|',
      `| MCP arguments against a \`oneOf\` nested 20 levels | ${UNTRUSTED_BEFORE.oneOf} | ${ms(untrusted.oneOfMs)} | < 1 ms: ${ok(untrusted.oneOfMs < 1)} |`,
      `| MCP arguments, \`pattern: ^(a+)+$\` on 40 a's and '!' | ${UNTRUSTED_BEFORE.pattern} | ${ms(untrusted.patternMs)} | < 1 ms: ${ok(untrusted.patternMs < 1)} |`,
      `| \`compileLinearRegExp\` (the \`grep\` tool), \`^(a+)+$\` on 40 a's and '!' | the same backtracking | ${ms(untrusted.re2Ms)} | – |`,
      `| \`compileLinearRegExp\`, \`^(a+)+$\` on 100,000 a's and '!' | – | ${ms(untrusted.re2LongMs)} | – |`,
      `| \`renderTemplate\`, a value shared 14 levels deep (16,384 leaves) | – | ${ms(untrusted.templateMs)} | – |`,
      '',
      `Side by side in the same run, JavaScript's RegExp (the old path for patterns) on \`^(a+)+$\`: ${untrusted.backtracking.map((row: any) => `${ms(row.ms)} at ${row.length} a's`).join(', ')}; × ${n(untrusted.perCharacter, 2)} per character, so about ${n(Math.pow(untrusted.perCharacter, 16) * untrusted.backtracking.at(-1).ms / 3_600_000, 1)} hours at 40 (extrapolated, not run).`,
      '',
    );
  }
  const render = all.rendering;
  if (render) {
    const v = render.versions ?? {};
    lines.push(
      `### Rendering in Chromium ${render.chromium} (${render.transcriptMessages}-message transcript, ${n(render.deltas)}-delta reply, ${render.pacing}, medians of ${render.runs} runs, ${render.measuredAt.slice(0, 10)})`,
      '',
      `React ${v.react}, @ai-sdk/react ${v['@ai-sdk/react']} with ai ${v.ai}${v.vue ? `, Vue ${v.vue}` : ''}${v.svelte ? `, Svelte ${v.svelte}` : ''}, playwright-core ${v['playwright-core']}, built with Vite ${v.vite}.`,
      '',
      '| Page | Updates (React commits) | Main-thread time per delta | of which script / layout | Long tasks > 50 ms (worst run) | Re-renders of earlier messages |',
      '|---|---|---|---|---|---|',
    );
    for (const p of Object.values(render.pages) as any[]) {
      lines.push(
        `| ${p.label} | ${n(p.commits)} | ${n(p.mainThreadMsPerDelta * 1000, 1)} µs | ${n(p.scriptMs)} ms / ${n(p.layoutMs)} ms | ${p.longTasks}${p.longTasks ? ` (longest ${n(p.longestTaskMs)} ms)` : ''} | ${n(p.earlierMessageRenders)} |`,
      );
    }
    const ours = render.pages.lousho;
    lines.push(
      '',
      '| Target (React) | Result | |',
      '|---|---|---|',
      `| No long task | ${ours.longTasks} | ${ok(render.targets.noLongTask)} |`,
      `| Main-thread time per delta ≤ ⅓ of useChat's (as shipped: no throttle) | ${n(render.ratioToUseChatDefault, 2)} of useChat default (${n(render.ratioToUseChatThrottled, 2)} of useChat with a 50 ms throttle, like Lousho's default; not a target) | ${ok(render.targets.mainThreadAtMostThirdOfUseChat)} |`,
      `| Earlier messages never re-render | ${ours.earlierMessageRenders} re-renders | ${ok(render.targets.earlierMessagesNeverRerender)} |`,
      '',
    );
  }
  const pg = all.postgresLoad;
  if (pg?.postgres) {
    lines.push(
      `### PostgreSQL: two processes sharing one database (${pg.sessions} concurrent sessions × ${pg.deltasPerTurn} deltas, medians of ${pg.postgres.runs} runs, ${pg.measuredAt.slice(0, 10)})`,
      '',
      '| Store | Sessions completed | Failed streams | Followed on the other process (failed) | Events per second | Time per event p50 | Follower lag p50 / p99 |',
      '|---|---|---|---|---|---|---|',
      `| PostgresStore, 2 processes | ${pg.postgres.completed} of ${pg.sessions} | ${pg.postgres.failed} | ${pg.postgres.followed} (${pg.postgres.followFailed}) | ${n(pg.postgres.eventsPerSecond)} | ${n(pg.postgres.msPerEventP50, 1)} ms | ${n(pg.postgres.followLagP50Ms)} ms / ${n(pg.postgres.followLagP99Ms)} ms |`,
      `| SqliteStore, 1 process | ${pg.sqlite.completed} of ${pg.sessions} | ${pg.sqlite.failed} | – | ${n(pg.sqlite.eventsPerSecond)} | ${n(pg.sqlite.msPerEventP50, 1)} ms | – |`,
      '',
      `Added per event on PostgreSQL: ${n(pg.addedCostMicrosecondsPerEvent, 0)} µs of throughput cost, ${n(pg.addedLatencyMicrosecondsPerEvent / 1000, 1)} ms of latency under this load. Zero lost or duplicated events: ${ok(pg.targets.zeroLostOrDuplicatedEvents)}.`,
      '',
    );
  }
  return lines.join('\n');
}

/** The paced server's tables: CPU per event side by side at each pace, latency and memory at the model's pace. */
function pacedMarkdown(paced: any): string[] {
  const lines: string[] = [];
  for (const result of [paced.tick, paced.model]) {
    const what = result.pace === 'tick' ? 'the model yields to the event loop before each delta' : `each delta ${result.pace.slice('model:'.length)} ms after the one before`;
    lines.push(
      `### The server at a model's pace: ${result.pace} (${what}; ${n(result.sessions)} concurrent sessions × ${result.deltasPerTurn} deltas, medians of runs, ${paced.measuredAt.slice(0, 10)})`,
      '',
      '| Server | Runs | Failed streams | Server CPU per event | Bytes on the wire per event | Added latency p50 / p99 | Heap per streaming session |',
      '|---|---|---|---|---|---|---|',
    );
    for (const s of result.servers) {
      const latency = s.latencyP50Ms === undefined ? '–' : `${n(s.latencyP50Ms, 2)} / ${n(s.latencyP99Ms, 2)} ms`;
      const heap = s.heapPerSessionBytes === undefined ? '–' : `${n(s.heapPerSessionBytes)} B`;
      lines.push(`| ${s.label} | ${s.runs} | ${s.failed + s.corrupt} | ${n(s.serverCpuPerEventUs, 1)} µs | ${n(s.wireBytesPerEvent, 1)} B | ${latency} | ${heap} |`);
    }
    lines.push('', `Lousho / floor: ${n(result.overFloor, 2)}× (target ≤ 2); Lousho / the AI SDK (${result.comparedWith}): ${n(result.ofAiSdk, 2)}× (target ≤ ⅓).`, '');
  }
  return lines;
}

/** The README's summary: one table of the headline figures against their targets. */
export function readmeMarkdown(all: any): string {
  const lines: string[] = [];
  const m = all.machine;
  const load = all.serverLoad;
  const render = all.rendering;
  if (m) lines.push(`Measured by \`pnpm bench\` on ${m.nproc} cores (${m.cpu}), Node ${m.node}, ${m.platform}; every figure is a median of runs; full tables and method in [docs/benchmarks.md](docs/benchmarks.md).`, '');
  if (render?.versions) {
    const v = render.versions;
    lines.push(`Compared with: ai ${v.ai}, @ai-sdk/react ${v['@ai-sdk/react']} (React ${v.react}); Chromium ${render.chromium} (Debian), playwright-core ${v['playwright-core']}.`, '');
  }
  lines.push('| What | Lousho | AI SDK | Target | |', '|---|---|---|---|---|');
  if (load) {
    const ours = load.servers[0];
    const theirs = load.servers.find((s: any) => s.label === load.comparedWith);
    lines.push(
      `| Server: ${n(load.sessions)} concurrent sessions × ${load.deltasPerTurn} deltas, events per second (${load.runs} runs, ${load.measuredAt.slice(0, 10)}) | ${n(ours.eventsPerSecond)} | ${n(theirs?.eventsPerSecond ?? NaN)} | ≥ 2× | ${n(load.throughputRatio, 2)}× ${ok(load.targets.throughputAtLeast2x)} |`,
      `| Server: lost, duplicated or reordered events | ${ours.failed + ours.corrupt} | ${(theirs?.failed ?? 0) + (theirs?.corrupt ?? 0)} | 0 | ${ok(ours.failed + ours.corrupt === 0)} |`,
      `| Server: time to first event p50 / p99 | ${n(ours.ttfeP50)} / ${n(ours.ttfeP99)} ms | ${n(theirs?.ttfeP50 ?? NaN)} / ${n(theirs?.ttfeP99 ?? NaN)} ms | | |`,
      `| Server: memory per idle session (one ${load.deltasPerTurn}-delta turn) | ${n(load.idleSession.bytes)} B | | ≤ ${load.targets.idleSessionAtMost6KB === undefined ? '20 KB' : '6 KB'} | ${ok(load.targets.idleSessionAtMost6KB ?? load.targets.idleSessionAtMost20KB)} |`,
      `| Server: CPU per event, ${n(load.sessions)} concurrent sessions | ${n(ours.serverCpuPerEventUs, 1)} µs | ${n(theirs?.serverCpuPerEventUs ?? NaN, 1)} µs | ≤ 2.5 µs at 1,000 sessions | ${load.targets.cpuPerEventAtMost2_5us === undefined ? '' : load.sessions >= 1000 ? ok(load.targets.cpuPerEventAtMost2_5us) : 'not run at 1,000'} |`,
      ...(load.floorCpuPerEventUs === undefined
        ? []
        : [`| Server: CPU per event of the floor (bare \`node:http\` writing a recorded Lousho turn), and Lousho / floor | ${n(load.cpuOverFloor, 1)}× | | | floor ${n(load.floorCpuPerEventUs, 2)} µs |`]),
    );
    const gzip = load.servers.find((s: any) => s.encoding === 'gzip');
    if (gzip) {
      const br = load.servers.find((s: any) => s.encoding === 'br');
      lines.push(
        `| Server: bytes on the wire per event, plain / gzip / br (\`compression: true\`) | ${n(ours.wireBytesPerEvent, 1)} / ${n(gzip.wireBytesPerEvent, 1)} / ${n(br?.wireBytesPerEvent ?? NaN, 1)} B | ${n(theirs?.wireBytesPerEvent ?? NaN, 1)} B | | |`,
        `| Server: CPU per event, plain / gzip / br | ${n(ours.serverCpuPerEventUs, 1)} / ${n(gzip.serverCpuPerEventUs, 1)} / ${n(br?.serverCpuPerEventUs ?? NaN, 1)} µs | | | |`,
      );
    }
  }
  const paced = all.pacedServer;
  if (paced?.model) {
    const row = (result: any, label: string) => {
      const ours = result.servers.find((s: any) => s.kind === 'lousho');
      const theirs = result.servers.find((s: any) => s.label === result.comparedWith);
      const floor = result.servers.find((s: any) => s.kind === 'http-floor');
      return `| Server at a model's pace (${label}, ${n(result.sessions)} sessions, ${paced.measuredAt.slice(0, 10)}): CPU per event; floor ${n(floor.serverCpuPerEventUs, 1)} µs | ${n(ours.serverCpuPerEventUs, 1)} µs | ${n(theirs.serverCpuPerEventUs, 1)} µs | ≤ 2× floor, ≤ ⅓ AI SDK | ${n(result.overFloor, 2)}× ${ok(result.overFloor <= 2)}, ${n(result.ofAiSdk, 2)} ${ok(result.ofAiSdk <= 1 / 3)} |`;
    };
    const ours = paced.model.servers.find((s: any) => s.kind === 'lousho');
    lines.push(
      row(paced.tick, 'a delta per event-loop turn'),
      row(paced.model, `a delta every ${paced.model.pace.slice('model:'.length)} ms`),
      `| Server at a model's pace: added latency p50 / p99, event made → written (${n(paced.model.sessions)} sessions) | ${n(ours.latencyP50Ms, 2)} / ${n(ours.latencyP99Ms, 2)} ms | | p99 ≤ 5 ms | ${ok(paced.targets.latencyP99AtMost5ms)} |`,
      `| Server at a model's pace: one core's worth, events per second / replies at 30 tokens per second | ${n(paced.perCore.eventsPerSecond)} / ${n(paced.perCore.repliesAt30TokensPerSecond)} | | | |`,
    );
  }
  const client = all.clientPipeline;
  if (client?.wireDelta) {
    const ratios = (client.rows ?? []).map((r: any) => r.chatRatio).filter((r: unknown) => typeof r === 'number');
    lines.push(`| Wire: bytes per ~4-character text delta, uncompressed (${client.measuredAt.slice(0, 10)}) | ${client.wireDelta.lousho} B | ${client.wireDelta.aiSdk} B | ≤ 57 B | ${ok(client.wireDelta.lousho <= 57)} |`);
    if (ratios.length) {
      const least = Math.min(...ratios);
      lines.push(`| Client: useChat store time ÷ Lousho client time, least over ${ratios.length} scenario × read-size pairs (${client.runs} runs) | | | ≥ 5 | ${n(least, 1)} ${ok(least >= 5)} |`);
    }
    if (client.peakHeap) {
      const h = client.peakHeap;
      lines.push(`| Client: peak heap on a ${n(h.deltas)}-delta reply | ${n(h.lousho.peakBytes / 1024 / 1024, 1)} MB | ${n(h.aiSdk.peakBytes / 1024 / 1024, 1)} MB | ≤ the AI SDK's | ${n(h.ratio, 2)} ${ok(h.ratio <= 1)} |`);
    }
  }
  if (render) {
    const p = render.pages;
    const us = (page: any): string => (page ? `${n(page.mainThreadMsPerDelta * 1000, 1)} µs` : '–');
    lines.push(
      `| Browser: main-thread time per delta, ${render.transcriptMessages}-message chat, ${n(render.deltas)}-delta reply (${render.runs} runs, ${render.measuredAt.slice(0, 10)}) | ${us(p.lousho)} | ${us(p.aiSdk)} (useChat default) | ≤ ⅓ | ${n(render.ratioToUseChatDefault, 2)} ${ok(render.targets.mainThreadAtMostThirdOfUseChat)} |`,
      `| Browser: the same against useChat with \`experimental_throttle: 50\` (Lousho's default throttle) | ${us(p.lousho)} | ${us(p.aiSdkThrottled)} | (not a target) | ${n(render.ratioToUseChatThrottled, 2)} |`,
      `| Browser: long tasks > 50 ms | ${p.lousho.longTasks} | ${p.aiSdk.longTasks} (useChat default) | 0 | ${ok(render.targets.noLongTask)} |`,
      `| Browser: re-renders of earlier messages | ${p.lousho.earlierMessageRenders} | ${p.aiSdk.earlierMessageRenders} | 0 | ${ok(render.targets.earlierMessagesNeverRerender)} |`,
    );
    if (p.vue) lines.push(`| Browser: Vue \`useLoushoAgent\`, main-thread time per delta / earlier re-renders | ${us(p.vue)} / ${p.vue.earlierMessageRenders} | | | |`);
    if (p.svelteDerived) lines.push(`| Browser: Svelte \`loushoAgent\` (\`$derived\` list), main-thread time per delta / earlier re-renders | ${us(p.svelteDerived)} / ${p.svelteDerived.earlierMessageRenders} | | | |`);
  }
  const pg = all.postgresLoad;
  if (pg?.postgres) {
    lines.push(
      `| PostgreSQL: ${pg.sessions} concurrent sessions over two processes sharing one database, events per second (${pg.postgres.runs} runs) | ${n(pg.postgres.eventsPerSecond)} (SQLite, one process: ${n(pg.sqlite.eventsPerSecond)}) | | 0 lost or duplicated | ${pg.postgres.failed + pg.postgres.followFailed} ${ok(pg.targets.zeroLostOrDuplicatedEvents)} |`,
    );
  }
  return lines.join('\n');
}

function replaceBetween(file: string, start: string, end: string, body: string): void {
  const doc = readFileSync(file, 'utf8');
  const from = doc.indexOf(start);
  const to = doc.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} has no ${start} … ${end} section`);
  writeFileSync(file, `${doc.slice(0, from + start.length)}\n${body}\n${doc.slice(to)}`);
}

export function writeBenchmarksDoc(): void {
  const all = JSON.parse(readFileSync(RESULTS_FILE, 'utf8'));
  replaceBetween(DOC, START, END, resultsMarkdown(all));
  replaceBetween(README, README_START, README_END, readmeMarkdown(all));
}

// Run alone: `npx tsx src/write-report.ts` (after a benchmark wrote results/latest.json).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeBenchmarksDoc();
