import type { AgentHook, GenerateHookContext } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import { checkCompactionOptions, compactRequest, type CompactionEnvironment } from './compact.js';
import type { CompactionInfo, CompactionOptions } from './types.js';

/** Where the agent loop finds a compaction hook's options, to run it at its own stage. */
export const COMPACTION_HOOK = Symbol.for('lousho.compactionHook');

/** What `createCompactionHook()` returns: an `AgentHook` the agent loop runs at its compaction stage. */
export interface CompactionHook extends AgentHook {
  readonly name: 'compaction';
  readonly [COMPACTION_HOOK]: CompactionOptions;
  /** Compacts the request in place when it is over the threshold (outside an agent; an agent runs it at its compaction stage). */
  preGenerate(ctx: GenerateHookContext): Promise<void>;
}

/**
 * A hook that, before each model call above `thresholdPercent` (default 90) of the model's context
 * window, compacts the transcript: by default it replaces tool results older than the newest
 * `protectedTokens` (default 40,000) with a `[pruned: <tool> result, N chars]` marker. It edits the
 * run's transcript in place, so the pruning persists in checkpoints and `result.messages`.
 *
 * In an agent (`hooks: [createCompactionHook()]`, or `createAgent({ compaction: true })`) it runs at
 * the loop's compaction stage, after the other `preGenerate` hooks, and the run's stream gets
 * `compaction.start` / `compaction.done`.
 */
export function createCompactionHook(options: CompactionOptions = {}): CompactionHook {
  checkCompactionOptions(options);
  const frozen = Object.freeze({ ...options });
  return {
    name: 'compaction',
    [COMPACTION_HOOK]: frozen,
    async preGenerate(ctx) {
      const request = ctx.request;
      await compactRequest(
        {
          messages: request.messages as Message[],
          model: request.model ?? '',
          system: request.system,
          tools: request.tools,
          maxTokens: request.maxTokens,
        },
        frozen,
        { step: ctx.step, signal: request.signal },
      );
    },
  };
}

export function isCompactionHook(hook: AgentHook): hook is CompactionHook {
  return typeof (hook as Partial<CompactionHook>)[COMPACTION_HOOK] === 'object';
}

/** Runs a compaction hook with the loop's environment (events, usage, provider). */
export function runCompactionHook(hook: CompactionHook, ctx: GenerateHookContext, env: CompactionEnvironment): Promise<CompactionInfo | undefined> {
  const request = ctx.request;
  return compactRequest(
    { messages: request.messages as Message[], model: request.model ?? '', system: request.system, tools: request.tools, maxTokens: request.maxTokens },
    hook[COMPACTION_HOOK],
    env,
  );
}
