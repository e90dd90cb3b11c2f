import { SingleBar } from 'cli-progress';
import type { EvalProgressEvent } from '@lousho/evals';
import { formatDuration } from './format.js';
import { terminalText } from './terminal-text.js';

/** What the command shows while evals run. */
export interface Progress {
  event(file: string, event: EvalProgressEvent): void;
  stop(): void;
}

/** A terminal: one progress bar over all runs of all evals (cli-progress), redrawn in place. */
export function barProgress(stream: NodeJS.WritableStream, totalRuns: number): Progress {
  const bar = new SingleBar({
    stream: stream as NodeJS.WriteStream,
    format: ' {bar} {value}/{total} runs | {eval} | {failed} failed',
    barCompleteChar: '█',
    barIncompleteChar: '░',
    hideCursor: true,
    clearOnComplete: true,
    fps: 10,
  });
  let failed = 0;
  bar.start(totalRuns, 0, { eval: '', failed });
  return {
    event(_file, event) {
      if (event.type === 'eval.start') bar.update({ eval: terminalText(event.eval) });
      if (event.type === 'run.done') {
        if (!event.passed) failed++;
        bar.increment(1, { eval: terminalText(event.eval), failed });
      }
    },
    stop: () => bar.stop(),
  };
}

/** Not a terminal (CI logs): a line per finished eval. */
export function lineProgress(write: (text: string) => void): Progress {
  return {
    event(file, event) {
      if (event.type !== 'eval.done') return;
      const r = event.report;
      const runs = r.cases.reduce((n, c) => n + c.runs.length, 0);
      write(`${r.passed ? '✓' : '✗'} ${terminalText(file)} › ${terminalText(r.name)}: ${r.cases.filter((c) => c.passed).length}/${r.cases.length} cases passed, ${runs} runs, ${formatDuration(r.durationMs)}\n`);
    },
    stop() {},
  };
}
