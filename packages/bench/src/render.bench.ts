/**
 * Rendering in a real browser (issue: "Performance under load and in the browser, side by side
 * with the AI SDK").
 *
 * A page shows a 300-message transcript, then streams a 5,000-delta reply; the same React
 * components (one memoized component per message) are driven once by useLoushoAgent (HTTP source)
 * and once by the AI SDK's useChat, at its default and with `experimental_throttle: 50` (Lousho's
 * default throttle is 50 ms, so that is the like-for-like comparison). A local server replays the
 * same reply as fixed bytes in each wire format, 10 events every 5 ms. Measured in Debian's
 * Chromium: React commits (<Profiler onRender>), main-thread time per delta (the browser's
 * TaskDuration metric over the streaming run, over the deltas), long tasks over 50 ms
 * (PerformanceObserver 'longtask') and renders of the 300 earlier messages. The Vue and Svelte
 * bindings get the same page and measurement (their own numbers; updates are counted per update
 * of the message list, the counterpart of a React commit).
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { launchChromium, CHROMIUM_PATH } from './browser/chromium.js';
import { makeRenderFixtures } from './browser/fixtures.js';
import { startReplayServer } from './browser/replay-server.js';
import { writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

export interface RenderBenchOptions {
  /** Runs per page (default 5). */
  runs?: number;
  /** Skip the Vite build and use pages/dist as it is. */
  noBuild?: boolean;
}

interface PageResult {
  commits: number;
  earlierMessageRenders: number;
  earlierMessages: number;
  longTasks: number;
  longestTaskMs: number;
  wallMs: number;
  finalTextLength: number;
  messagesAfter: number;
  /** From the browser's Performance metrics over run(): main-thread task time and its parts (ms). */
  taskMs: number;
  scriptMs: number;
  layoutMs: number;
  styleMs: number;
}

interface Variant {
  key: string;
  label: string;
  page: string;
  query: string;
}

const VARIANTS: Variant[] = [
  { key: 'lousho', label: 'React useLoushoAgent (HTTP)', page: 'lousho.html', query: '' },
  { key: 'aiSdk', label: 'useChat (default)', page: 'ai-sdk.html', query: '' },
  { key: 'aiSdkThrottled', label: 'useChat (experimental_throttle: 50)', page: 'ai-sdk.html', query: '&throttle=50' },
  // Our own numbers for the other bindings (same harness; updates counted per list update).
  { key: 'vue', label: 'Vue useLoushoAgent (HTTP)', page: 'vue.html', query: '' },
  { key: 'svelte', label: 'Svelte loushoAgent (HTTP), {#each $agent.messages}', page: 'svelte.html', query: '' },
  { key: 'svelteDerived', label: 'Svelte loushoAgent (HTTP), {#each $derived}', page: 'svelte.html', query: '&derived=1' },
];

const PAGES_DIR = fileURLToPath(new URL('../pages/', import.meta.url));
const DIST_DIR = fileURLToPath(new URL('../pages/dist/', import.meta.url));

async function buildPages(): Promise<void> {
  const { build } = await import('vite');
  await build({ configFile: `${PAGES_DIR}vite.config.ts`, logLevel: 'warn' });
}

function metric(metrics: { name: string; value: number }[], name: string): number {
  return (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
}

async function measure(context: any, url: string, profile = false): Promise<PageResult & { profile?: unknown }> {
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
    await page.goto(url);
    await page.waitForFunction(() => (window as any).__bench !== undefined, undefined, { timeout: 30_000 });
    await page.evaluate(() => (window as any).__bench.ready());
    await page.waitForTimeout(200); // let the first render's tasks settle
    if (profile) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
      await cdp.send('Profiler.start');
    }
    const before = (await cdp.send('Performance.getMetrics')).metrics;
    const result = (await page.evaluate(() => (window as any).__bench.run())) as Omit<PageResult, 'taskMs' | 'scriptMs' | 'layoutMs' | 'styleMs'>;
    const after = (await cdp.send('Performance.getMetrics')).metrics;
    const cpuProfile = profile ? (await cdp.send('Profiler.stop')).profile : undefined;
    const diff = (name: string): number => metric(after, name) - metric(before, name);
    return {
      ...result,
      taskMs: diff('TaskDuration'),
      scriptMs: diff('ScriptDuration'),
      layoutMs: diff('LayoutDuration'),
      styleMs: diff('RecalcStyleDuration'),
      ...(cpuProfile ? { profile: cpuProfile } : {}),
    };
  } finally {
    await page.close();
  }
}

/** The functions with the most self time in a CPU profile (ms), for the note on a missed target. */
export function topSelfTime(profile: any, count = 8): { fn: string; ms: number }[] {
  const byId = new Map<number, any>(profile.nodes.map((node: any) => [node.id, node]));
  const self = new Map<string, number>();
  const deltas: number[] = profile.timeDeltas;
  profile.samples.forEach((id: number, i: number) => {
    const node = byId.get(id);
    const frame = node.callFrame;
    const file = String(frame.url).split('/').pop() || '(native)';
    const key = `${frame.functionName || '(anonymous)'} ${file}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + (deltas[i + 1] ?? 0) / 1000);
  });
  return [...self.entries()]
    .filter(([key]) => !key.startsWith('(idle)') && !key.startsWith('(program)'))
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([fn, ms]) => ({ fn, ms: Math.round(ms * 10) / 10 }));
}

const flag = (ok: boolean): string => (ok ? 'OK' : 'OVER TARGET');

export async function runRenderBench(options: RenderBenchOptions = {}): Promise<Record<string, unknown> | undefined> {
  const runs = options.runs ?? 5;
  if (!existsSync(CHROMIUM_PATH)) {
    console.log(`\nNote: no Chromium at ${CHROMIUM_PATH} (set BENCH_CHROMIUM): the rendering benchmark is skipped.`);
    return undefined;
  }
  if (!options.noBuild) await buildPages();
  const fixtures = await makeRenderFixtures(300, 5000);
  const { server, origin } = await startReplayServer(DIST_DIR.replace(/\/$/, ''), fixtures, { eventsPerWrite: 10, intervalMs: 5 });
  const browser = await launchChromium();
  const samples = new Map<string, PageResult[]>(VARIANTS.map((v) => [v.key, []]));
  const profiles: Record<string, { fn: string; ms: number }[]> = {};
  try {
    const urlOf = (v: Variant): string => `${origin}/${v.page}?expected=${fixtures.expectedLength}${v.query}`;
    for (const v of VARIANTS) await measure(browser.context, urlOf(v)); // warm-up: HTTP and code caches
    for (let run = 0; run < runs; run++) {
      for (let k = 0; k < VARIANTS.length; k++) {
        const v = VARIANTS[(run + k) % VARIANTS.length]!;
        const result = await measure(browser.context, urlOf(v));
        if (result.finalTextLength !== fixtures.expectedLength || result.messagesAfter !== fixtures.transcriptMessages + 2) {
          throw new Error(`${v.label}: ended with ${result.messagesAfter} messages and ${result.finalTextLength} characters of reply`);
        }
        samples.get(v.key)!.push(result);
      }
    }
    // One profiled run per page, outside the timed ones: where the main thread's time goes.
    for (const v of VARIANTS) profiles[v.key] = topSelfTime((await measure(browser.context, urlOf(v), true)).profile);
  } finally {
    await browser.close();
    server.close();
  }

  const deltas = fixtures.deltas;
  const summary = Object.fromEntries(
    VARIANTS.map((v) => {
      const list = samples.get(v.key)!;
      const m = (pick: (r: PageResult) => number): number => median(list.map(pick));
      return [
        v.key,
        {
          label: v.label,
          commits: m((r) => r.commits),
          mainThreadMsPerDelta: m((r) => r.taskMs) / deltas,
          mainThreadMs: m((r) => r.taskMs),
          scriptMs: m((r) => r.scriptMs),
          layoutMs: m((r) => r.layoutMs),
          styleMs: m((r) => r.styleMs),
          longTasks: Math.max(...list.map((r) => r.longTasks)),
          longestTaskMs: Math.max(...list.map((r) => r.longestTaskMs)),
          earlierMessageRenders: Math.max(...list.map((r) => r.earlierMessageRenders)),
          wallMs: m((r) => r.wallMs),
          profileTopSelfTime: profiles[v.key],
        },
      ];
    }),
  ) as Record<string, { label: string; commits: number; mainThreadMsPerDelta: number; mainThreadMs: number; scriptMs: number; layoutMs: number; styleMs: number; longTasks: number; longestTaskMs: number; earlierMessageRenders: number; wallMs: number; profileTopSelfTime: unknown }>;

  const rows: [string, string][] = [];
  for (const v of VARIANTS) {
    const s = summary[v.key]!;
    rows.push([`${s.label}: ${v.key === 'vue' || v.key.startsWith('svelte') ? 'list updates' : 'React commits'}`, String(s.commits)]);
    rows.push([`${s.label}: main-thread time per delta`, `${(s.mainThreadMsPerDelta * 1000).toFixed(1)} µs  (${s.mainThreadMs.toFixed(0)} ms in all: script ${s.scriptMs.toFixed(0)}, layout ${s.layoutMs.toFixed(0)}, style ${s.styleMs.toFixed(0)})`]);
    rows.push([`${s.label}: long tasks > 50 ms (worst run)`, `${s.longTasks}${s.longTasks ? ` (longest ${s.longestTaskMs.toFixed(0)} ms)` : ''}`]);
    rows.push([`${s.label}: renders of the ${fixtures.transcriptMessages} earlier messages`, String(s.earlierMessageRenders)]);
  }
  const ours = summary.lousho!;
  const ratioDefault = ours.mainThreadMsPerDelta / summary.aiSdk!.mainThreadMsPerDelta;
  const ratioThrottled = ours.mainThreadMsPerDelta / summary.aiSdkThrottled!.mainThreadMsPerDelta;
  rows.push(['Lousho long tasks (target 0)', `${ours.longTasks} ${flag(ours.longTasks === 0)}`]);
  rows.push(['main-thread per delta, Lousho / useChat default (target ≤ 0.33)', `${ratioDefault.toFixed(2)} ${flag(ratioDefault <= 1 / 3)}`]);
  rows.push(['main-thread per delta, Lousho / useChat throttled 50 ms (reported, not a target)', ratioThrottled.toFixed(2)]);
  rows.push(['Lousho renders of earlier messages (target 0)', `${ours.earlierMessageRenders} ${flag(ours.earlierMessageRenders === 0)}`]);
  printTable(`Rendering in Chromium ${browser.version}: 300-message transcript, 5,000-delta reply (median of ${runs} runs)`, rows);
  for (const v of VARIANTS) console.log(`  profile, ${summary[v.key]!.label}: ${(profiles[v.key] ?? []).map((p) => `${p.fn} ${p.ms} ms`).join('; ')}`);

  const versions = Object.fromEntries(
    ['react', 'react-dom', '@ai-sdk/react', 'ai', 'vue', 'svelte', 'playwright-core', 'vite'].map((name) => [
      name,
      (JSON.parse(readFileSync(fileURLToPath(import.meta.resolve(`${name}/package.json`)), 'utf8')) as { version: string }).version,
    ]),
  );
  const result = {
    runs,
    chromium: browser.version,
    versions,
    transcriptMessages: fixtures.transcriptMessages,
    deltas,
    pacing: '10 events every 5 ms',
    pages: summary,
    ratioToUseChatDefault: ratioDefault,
    ratioToUseChatThrottled: ratioThrottled,
    targets: {
      noLongTask: ours.longTasks === 0,
      // The issue's target is useChat as shipped (no throttle); the throttled ratio is reported beside it.
      mainThreadAtMostThirdOfUseChat: ratioDefault <= 1 / 3,
      earlierMessagesNeverRerender: ours.earlierMessageRenders === 0,
    },
  };
  writeResultSection('rendering', result);
  return result;
}

// Run alone: `npx tsx src/render.bench.ts [runs]`.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runRenderBench({ runs: Number(process.argv[2] ?? 5) });
}
