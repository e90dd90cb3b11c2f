/**
 * The measurement harness every page shares (framework-neutral): renders per message, updates
 * ("commits"), long tasks (PerformanceObserver 'longtask') and `window.__bench`. The runner reads
 * main-thread time from the browser (CDP Performance metrics) around `window.__bench.run()`.
 */
export interface BenchMessage {
  id: string;
  role: string;
  parts: readonly { type: string; text?: string }[];
}

export interface BenchResult {
  commits: number;
  /** Renders of the messages that were there before the run started (target 0). */
  earlierMessageRenders: number;
  earlierMessages: number;
  longTasks: number;
  longestTaskMs: number;
  wallMs: number;
  finalTextLength: number;
  messagesAfter: number;
}

export interface BenchState {
  commits: number;
  renders: Map<string, number>;
  longTasks: PerformanceEntry[];
}

export const state: BenchState = { commits: 0, renders: new Map(), longTasks: [] };
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) state.longTasks.push(entry);
}).observe({ type: 'longtask', buffered: true });

export const textOf = (message: BenchMessage): string => message.parts.map((part) => (part.type === 'text' ? (part.text ?? '') : '')).join('');

/**
 * Installs `window.__bench`: `ready()` resolves when the transcript is on screen, `run()` sends
 * the prompt and resolves with the counts once the reply is complete (`expectedLength` characters).
 */
export function installHarness(options: {
  messages: () => readonly BenchMessage[];
  idle: () => boolean;
  send: (text: string) => void;
  transcriptLength: number;
  expectedLength: number;
}): { notify(): void } {
  let waiters: (() => void)[] = [];
  const notify = (): void => {
    const pending = waiters;
    waiters = [];
    for (const waiter of pending) waiter();
  };
  const until = (condition: () => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = (): void => (condition() ? resolve() : void waiters.push(check));
      check();
    });
  const lastText = (): number => {
    const all = options.messages();
    const last = all[all.length - 1];
    return last && last.role === 'assistant' ? textOf(last).length : 0;
  };
  (window as unknown as { __bench: unknown }).__bench = {
    ready: () => until(() => options.messages().length >= options.transcriptLength && options.idle()),
    async run(): Promise<BenchResult> {
      const earlier = options.messages().map((message) => message.id);
      state.commits = 0;
      state.renders.clear();
      const start = performance.now();
      options.send('Write the long benchmark reply.');
      await until(() => options.messages().length === earlier.length + 2 && lastText() >= options.expectedLength && options.idle());
      const wallMs = performance.now() - start;
      // Let the last commit and any task it queued finish before reading the observers.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const tasks = state.longTasks.filter((entry) => entry.startTime >= start);
      return {
        commits: state.commits,
        earlierMessageRenders: earlier.reduce((n, id) => n + (state.renders.get(id) ?? 0), 0),
        earlierMessages: earlier.length,
        longTasks: tasks.length,
        longestTaskMs: Math.max(0, ...tasks.map((entry) => entry.duration)),
        wallMs,
        finalTextLength: lastText(),
        messagesAfter: options.messages().length,
      };
    },
  };
  return { notify };
}

/** The numbers every page is built for (the runner serves matching fixtures). */
export const TRANSCRIPT_MESSAGES = 300;
