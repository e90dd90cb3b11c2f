/**
 * Writes the latest results (results/latest.json) as tables into docs/benchmarks.md, between the
 * `bench:results` markers; the text around them is left as it is.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { RESULTS_FILE } from './results.js';

const DOC = fileURLToPath(new URL('../../../docs/benchmarks.md', import.meta.url));
const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

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
      `| Main-thread time per delta ≤ ⅓ of useChat's | ${n(render.ratioToUseChatDefault, 2)} of useChat default, ${n(render.ratioToUseChatThrottled, 2)} of useChat with a 16 ms throttle | ${ok(render.targets.mainThreadAtMostThirdOfUseChat)} |`,
      `| Earlier messages never re-render | ${ours.earlierMessageRenders} re-renders | ${ok(render.targets.earlierMessagesNeverRerender)} |`,
      '',
    );
  }
  return lines.join('\n');
}

export function writeBenchmarksDoc(): void {
  const all = JSON.parse(readFileSync(RESULTS_FILE, 'utf8'));
  const doc = readFileSync(DOC, 'utf8');
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no ${START} … ${END} section`);
  writeFileSync(DOC, `${doc.slice(0, start + START.length)}\n${resultsMarkdown(all)}\n${doc.slice(end)}`);
}

// Run alone: `npx tsx src/write-report.ts` (after a benchmark wrote results/latest.json).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) writeBenchmarksDoc();
