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

export function resultsMarkdown(all: any): string {
  const lines: string[] = [];
  const m = all.machine;
  if (m) lines.push(`Machine: ${m.nproc} cores, ${m.cpu}, Node ${m.node}, ${m.platform}.`, '');
  const load = all.serverLoad;
  if (load) {
    lines.push(
      `### Server under load (${n(load.sessions)} concurrent sessions × ${load.deltasPerTurn} deltas, medians of runs, ${load.measuredAt.slice(0, 10)})`,
      '',
      '| Server | Runs | Sessions completed | Failed / corrupt streams | Events per second | Time to first event p50 / p99 | Server CPU per event |',
      '|---|---|---|---|---|---|---|',
    );
    for (const s of load.servers) {
      lines.push(`| ${s.label} | ${s.runs} | ${s.completed} of ${load.sessions} | ${s.failed} / ${s.corrupt} | ${n(s.eventsPerSecond)} | ${n(s.ttfeP50)} ms / ${n(s.ttfeP99)} ms | ${n(s.serverCpuPerEventUs, 1)} µs |`);
    }
    lines.push(
      '',
      '| Target | Result | |',
      '|---|---|---|',
      `| Zero lost, duplicated or reordered events | ${load.servers.reduce((k: number, s: any) => k + s.failed, 0)} failed streams | ${ok(load.targets.zeroLostEvents)} |`,
      `| Throughput ≥ 2× the AI SDK's (its faster path: ${load.comparedWith}) | ${n(load.throughputRatio, 2)}× | ${ok(load.targets.throughputAtLeast2x)} |`,
      `| Memory per idle session ≤ 20 KB (one ${load.deltasPerTurn}-delta turn each) | ${n(load.idleSession.bytes / 1024, 1)} KB (${load.idleSession.eventsKept} events kept; ${n(load.idleSession.bytesOneDeltaTurn / 1024, 1)} KB after a 1-delta turn) | ${ok(load.targets.idleSessionAtMost20KB)} |`,
      '',
    );
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
      `| Server: lost, duplicated or reordered events | ${ours.failed + ours.corrupt} | ${(theirs?.failed ?? 0) + (theirs?.corrupt ?? 0)} | 0 | ${ok(load.targets.zeroLostEvents)} |`,
      `| Server: time to first event p50 / p99 | ${n(ours.ttfeP50)} / ${n(ours.ttfeP99)} ms | ${n(theirs?.ttfeP50 ?? NaN)} / ${n(theirs?.ttfeP99 ?? NaN)} ms | | |`,
      `| Server: memory per idle session (one ${load.deltasPerTurn}-delta turn) | ${n(load.idleSession.bytes / 1024, 1)} KB | | ≤ 20 KB | ${ok(load.targets.idleSessionAtMost20KB)} |`,
    );
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
