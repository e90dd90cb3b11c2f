import { isCompactionHook, runCompactionHook } from '../../compaction/hook.js';
import type { GenerateOptions } from '@lousho/protocol';
import { UsageTracker } from '../../usage/tracker.js';
import type { LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';

/**
 * The stage "compaction": runs the agent's compaction hooks (after the other `preGenerate` hooks, so
 * it measures the request as it will be sent). Emits `compaction.start` / `compaction.done`; a summary
 * call counts in the run's usage (as delegated work, not as a delegated run). Messages a summary removed from before the run's
 * own messages move `snapshot.runStart` back.
 */
export async function compactionStage(deps: LoopDeps, snapshot: RunSnapshot, request: GenerateOptions, step: number, usage: UsageTracker): Promise<void> {
  for (const hook of deps.hooks) {
    if (!isCompactionHook(hook)) continue;
    const lengthBefore = snapshot.messages.length;
    const runMessages = lengthBefore - snapshot.runStart;
    const info = await runCompactionHook(
      hook,
      { runId: snapshot.runId, sessionId: snapshot.sessionId, step, request },
      {
        step,
        provider: deps.provider,
        summaryBoundary: snapshot.runStart,
        signal: deps.signal,
        recordModelCall: ({ model, usage: reported, estimateInput, estimateOutput }) => {
          const call = new UsageTracker();
          call.record({ model, reported, estimateInput, estimateOutput });
          usage.addDelegated(call.snapshot(), 'call');
        },
        onStart: ({ tokens, contextWindow }) => deps.emit({ type: 'compaction.start', step, tokens, contextWindow }),
        onDone: (done) => deps.emit({ type: 'compaction.done', step, tokensBefore: done.tokensBefore, tokensAfter: done.tokensAfter, pruned: done.pruned, summarized: done.summarized }),
      },
    );
    // A summary only covers messages of earlier runs: this run's own messages are all still there, at the end.
    if (info && snapshot.messages.length !== lengthBefore) snapshot.runStart = snapshot.messages.length - runMessages;
  }
}
