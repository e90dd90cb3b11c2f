import type { Message } from '@lousho/protocol';
import type { LLMProvider, ProviderUsage } from '@lousho/protocol';

/** What a strategy knows about the request it compacts. */
export interface CompactionContext {
  /** The model the request is for. */
  model: string;
  /** The run's provider, when there is a run (summaries are written with it unless a strategy names its own). */
  provider?: LLMProvider;
  /** The model's context window, in tokens. */
  contextWindow: number;
  /** Compaction aims to bring the request under this many tokens (the threshold). */
  targetTokens: number;
  /** The newest messages worth this many tokens are kept as they are (as long as the request fits). */
  protectedTokens: number;
  /** Tokens of the request outside `messages`: the system prompt and the tool definitions. */
  fixedTokens: number;
  /**
   * Messages from this index on belong to the run in progress: a summary covers only messages before
   * it (pruning may touch any). `messages.length` when there is no run.
   */
  summaryBoundary: number;
  signal?: AbortSignal;
  /** Estimated tokens of one message (cached per message object). */
  tokensOf(message: Message): number;
  /** Reports a model call a strategy made (a summary), so the run's usage and budgets count it. */
  recordModelCall?(call: { model: string; usage?: ProviderUsage; estimateInput: () => number; estimateOutput: () => number }): void;
}

/** What a strategy did: the new transcript and how many messages it pruned and summarized. */
export interface CompactionResult {
  messages: Message[];
  /** Tool results replaced by a `[pruned: ...]` marker. */
  pruned: number;
  /** Messages replaced by a summary. */
  summarized: number;
}

/** A way to make a transcript smaller. `compact()` may be async (a summary calls a model). */
export interface CompactionStrategy {
  readonly name: string;
  /** Returns a smaller transcript for `messages` (never changing them), keeping what `ctx` protects. */
  compact(messages: readonly Message[], ctx: CompactionContext): CompactionResult | Promise<CompactionResult>;
}

/** What `onCompaction` (and the `compaction.done` event) report. */
export interface CompactionInfo {
  /** The model call (1-based within the run) the compaction ran before; 0 outside a run. */
  step: number;
  model: string;
  contextWindow: number;
  /** Estimated tokens of the request before and after. */
  tokensBefore: number;
  tokensAfter: number;
  pruned: number;
  summarized: number;
  strategy: string;
}

/** What `createCompactionHook()` and `createAgent({ compaction })` take: when to compact, and how. */
export interface CompactionOptions {
  /** Compact when the request exceeds this share of the context window, in percent (default 90). */
  thresholdPercent?: number;
  /** The model's context window in tokens (default: from the model registry, `getModelInfo`). */
  contextWindow?: number;
  /**
   * The newest messages worth this many tokens are never pruned or summarized by the strategy
   * (default 40,000; capped at half the threshold, so a small window still has something to compact).
   */
  protectedTokens?: number;
  /** How to compact (default: prune old tool results). */
  strategy?: CompactionStrategy;
  /** Called after each compaction. */
  onCompaction?: (info: CompactionInfo) => void;
}
