import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { Message } from '@lousho/protocol';
import { getModelInfo } from '../models/registry.js';
import { estimateTokens } from '../models/tokens.js';
import type { LLMProvider, ToolSpec } from '@lousho/protocol';
import { pruneStrategy, pruneUntil } from './prune.js';
import type { CompactionContext, CompactionInfo, CompactionOptions } from './types.js';

const DEFAULT_THRESHOLD_PERCENT = 90;
const DEFAULT_PROTECTED_TOKENS = 40_000;

/** The request a compaction looks at; `messages` is edited in place. */
export interface CompactableRequest {
  messages: Message[];
  model: string;
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  /** Output tokens asked for: kept free in the window. */
  maxTokens?: number | undefined;
}

/** Where a compaction runs: in an agent run (events, usage) or by hand. */
export interface CompactionEnvironment {
  step: number;
  provider?: LLMProvider | undefined;
  /** Messages from here on belong to the run in progress (summaries stop before them). */
  summaryBoundary?: number;
  signal?: AbortSignal | undefined;
  recordModelCall?: CompactionContext['recordModelCall'];
  onStart?(info: { tokens: number; contextWindow: number }): void;
  onDone?(info: CompactionInfo): void;
}

/** Checks compaction options once (createCompactionHook, compactMessages). */
export function checkCompactionOptions(options: CompactionOptions): void {
  const invalid = (message: string, hint: string) => new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint });
  if (typeof options !== 'object' || options === null) throw invalid('Compaction options must be an object.', 'e.g. { thresholdPercent: 80 }');
  const known = new Set(['thresholdPercent', 'contextWindow', 'protectedTokens', 'strategy', 'onCompaction']);
  for (const key of Object.keys(options)) if (!known.has(key)) throw new SDKError(ERROR_CODES.LOUSHO_UNKNOWN_OPTION, `Compaction has no option \`${key}\`.`, { hint: `The options are ${[...known].join(', ')}.` });
  const { thresholdPercent: pct, contextWindow, protectedTokens, strategy } = options;
  if (pct !== undefined && !(typeof pct === 'number' && pct > 0 && pct <= 100)) throw invalid(`thresholdPercent must be a number above 0 and at most 100, got ${String(pct)}.`, 'e.g. thresholdPercent: 80');
  if (contextWindow !== undefined && !(Number.isInteger(contextWindow) && contextWindow > 0)) throw invalid(`contextWindow must be a positive integer of tokens, got ${String(contextWindow)}.`, 'e.g. contextWindow: 128000');
  if (protectedTokens !== undefined && !(Number.isInteger(protectedTokens) && protectedTokens >= 0)) throw invalid(`protectedTokens must be a non-negative integer, got ${String(protectedTokens)}.`, 'e.g. protectedTokens: 20000');
  if (strategy !== undefined && (typeof strategy !== 'object' || strategy === null || typeof strategy.compact !== 'function')) throw invalid('strategy must be a CompactionStrategy ({ name, compact(messages, ctx) }).', 'Use twoPhaseStrategy({ model }) or summarizeStrategy().');
}

/** Estimated tokens per message object, per model (messages are frozen, so the count never goes stale). */
const cache = new Map<string, WeakMap<Message, number>>();

function tokenCounter(model: string): (message: Message) => number {
  let counts = cache.get(model);
  if (!counts) cache.set(model, (counts = new WeakMap()));
  return (message) => {
    let n = counts.get(message);
    if (n === undefined) {
      n = estimateTokens(message, { model });
      if (Object.isFrozen(message)) counts.set(message, n);
    }
    return n;
  };
}

/**
 * Compacts `request.messages` in place when the request is above the threshold; returns what was
 * done, or undefined when nothing was needed or nothing could be shortened. Whatever the strategy did, the request then fits the
 * window: tool results are pruned further (newest last) if needed, and a request that still does not
 * fit fails with `LOUSHO_CONTEXT_OVERFLOW` instead of being sent.
 */
export async function compactRequest(request: CompactableRequest, options: CompactionOptions, env: CompactionEnvironment): Promise<CompactionInfo | undefined> {
  const { model } = request;
  const contextWindow = options.contextWindow ?? getModelInfo(model)?.contextWindow;
  if (contextWindow === undefined) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Compaction needs the context window of the model '${model}', which the model registry does not know.`, {
      hint: `Pass contextWindow to the compaction options, or registerModel({ id: '${model}', provider, contextWindow }).`,
    });
  }
  const hardLimit = contextWindow - (request.maxTokens ?? 0);
  const targetTokens = Math.min(Math.floor((contextWindow * (options.thresholdPercent ?? DEFAULT_THRESHOLD_PERCENT)) / 100), hardLimit);
  const tokensOf = tokenCounter(model);
  const fixedTokens =
    3 + (request.system ? estimateTokens({ role: 'system', content: request.system }, { model }) : 0) + (request.tools?.length ? estimateTokens(JSON.stringify(request.tools), { model }) : 0);
  const measure = () => request.messages.reduce((sum, m) => sum + tokensOf(m), fixedTokens);

  const tokensBefore = measure();
  if (tokensBefore <= targetTokens) return undefined;

  const strategy = options.strategy ?? pruneStrategy();
  const ctx: CompactionContext = {
    model,
    contextWindow,
    targetTokens,
    protectedTokens: Math.min(options.protectedTokens ?? DEFAULT_PROTECTED_TOKENS, Math.floor(targetTokens / 2)),
    fixedTokens,
    summaryBoundary: Math.min(env.summaryBoundary ?? request.messages.length, request.messages.length),
    tokensOf,
    ...(env.provider ? { provider: env.provider } : {}),
    ...(env.signal ? { signal: env.signal } : {}),
    ...(env.recordModelCall ? { recordModelCall: env.recordModelCall } : {}),
  };
  const result = await strategy.compact(request.messages.slice(), ctx);
  if (!result || !Array.isArray(result.messages)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `The compaction strategy '${strategy.name}' returned no { messages }.`, { hint: 'compact() must return { messages, pruned, summarized }.' });
  }
  const messages = result.messages.slice();
  let pruned = result.pruned ?? 0;
  if (messages.reduce((sum, m) => sum + tokensOf(m), fixedTokens) > hardLimit) pruned += pruneUntil(messages, hardLimit - fixedTokens, tokensOf);
  const summarized = result.summarized ?? 0;
  // Reported (and written) only when the transcript changed: a strategy that found nothing to shorten is silent.
  const changed = pruned + summarized > 0;
  if (changed) {
    env.onStart?.({ tokens: tokensBefore, contextWindow });
    request.messages.splice(0, request.messages.length, ...messages);
  }
  const tokensAfter = changed ? measure() : tokensBefore;
  if (tokensAfter > hardLimit) {
    throw new SDKError(ERROR_CODES.LOUSHO_CONTEXT_OVERFLOW, `The request to '${model}' takes about ${tokensAfter} tokens even after compaction; the model's window leaves room for ${hardLimit}.`, {
      hint: 'Shorten the system prompt, tools or input, pin fewer messages, lower maxTokens, or use a model with a larger context window.',
    });
  }
  if (!changed) return undefined;
  const info: CompactionInfo = { step: env.step, model, contextWindow, tokensBefore, tokensAfter, pruned, summarized, strategy: strategy.name };
  options.onCompaction?.(info);
  env.onDone?.(info);
  return info;
}
