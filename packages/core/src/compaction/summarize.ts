import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { textOf, type Message } from '@lousho/protocol';
import { estimateTokens } from '../models/tokens.js';
import { generateFromStream } from '@lousho/providers';
import type { LLMProvider } from '@lousho/protocol';
import { isPinned } from './pin.js';
import { protectedStart, pruneOldToolResults } from './prune.js';
import type { CompactionContext, CompactionResult, CompactionStrategy } from './types.js';

/** The first line of a summary message; also how a later summary recognises an earlier one. */
export const SUMMARY_HEADING = '[Summary of the earlier conversation]';

/** What `summarizeStrategy()` takes: who writes the summary, and how long it may be. */
export interface SummarizeStrategyOptions {
  /**
   * Who writes the summary: a provider (its default model), or a model id for the run's provider.
   * Default: the run's provider and model.
   */
  model?: LLMProvider | string;
  /** Longest summary asked for, in words (default 400). */
  maxWords?: number;
}

/** Each message is cut to this many characters in the text the summarizer reads. */
const MAX_MESSAGE_CHARS = 6000;
const MAX_TOOL_RESULT_CHARS = 1500;

const INSTRUCTIONS = (maxWords: number) =>
  'You condense the earlier part of a conversation between a user and an AI assistant, so the assistant can go on without the original messages. ' +
  "Keep what still matters: the user's goals and requests, decisions taken, facts learned (names, numbers, ids, paths, URLs), tool results still needed, and open tasks. " +
  `Write short plain sentences or bullet points, at most ${maxWords} words. Add nothing that is not in the conversation.`;

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)} [... ${text.length - max} more characters]` : text;
}

/** The messages as plain text for the summarizer. */
function render(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool') lines.push(`Tool result (${m.toolName ?? 'tool'})${m.isError ? ' [error]' : ''}: ${cut(textOf(m), MAX_TOOL_RESULT_CHARS)}`);
    else {
      const text = textOf(m);
      if (text) lines.push(`${m.role === 'user' ? 'User' : m.role === 'assistant' ? 'Assistant' : 'System'}: ${cut(text, MAX_MESSAGE_CHARS)}`);
      for (const call of m.toolCalls ?? []) lines.push(`Assistant called ${call.name}(${cut(call.arguments, 500)})`);
    }
  }
  return lines.join('\n');
}

/**
 * Where a summary may end: the last message that starts an exchange (a user or assistant message,
 * never a tool result, so a call and its result are never split) at or before `limit`.
 */
function summaryCut(messages: readonly Message[], limit: number): number {
  for (let i = Math.min(limit, messages.length - 1); i > 0; i--) if (messages[i]!.role !== 'tool') return i;
  return 0;
}

/**
 * Replaces the messages before the protected tail (and before the run in progress) with one user
 * message holding a summary written by a model. Pinned messages stay, after the summary.
 */
export async function summarizeOldMessages(messages: readonly Message[], ctx: CompactionContext, options: SummarizeStrategyOptions = {}): Promise<CompactionResult> {
  const end = summaryCut(messages, Math.min(protectedStart(messages, ctx), ctx.summaryBoundary));
  const prefix = messages.slice(0, end);
  const pinned = prefix.filter(isPinned);
  const covered = prefix.filter((m) => !isPinned(m));
  // One earlier summary alone is not summarized again.
  if (covered.length === 0 || (covered.length === 1 && textOf(covered[0]).startsWith(SUMMARY_HEADING))) return { messages: messages.slice(), pruned: 0, summarized: 0 };

  const given = options.model;
  const provider = typeof given === 'object' ? given : ctx.provider;
  if (!provider) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'A summary needs a model: pass summarizeStrategy({ model: provider }) (or twoPhaseStrategy), or compact inside an agent run.', {
      hint: 'e.g. twoPhaseStrategy({ model: openai }), where openai is a provider.',
    });
  }
  const model = typeof given === 'string' ? given : typeof given === 'object' ? given.defaultModel : ctx.model;
  const request = {
    system: INSTRUCTIONS(options.maxWords ?? 400),
    messages: [{ role: 'user' as const, content: `Condense this conversation:\n\n${render(covered)}` }],
    ...(model !== undefined ? { model } : {}),
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  };
  const response = await generateFromStream(provider, request);
  const summary = response.text.trim();
  const usedModel = model ?? provider.name;
  ctx.recordModelCall?.({
    model: usedModel,
    ...(response.usage ? { usage: response.usage } : {}),
    estimateInput: () => estimateTokens([{ role: 'system', content: request.system }, ...request.messages], { model: usedModel }),
    estimateOutput: () => estimateTokens(response.text, { model: usedModel }),
  });
  if (!summary) {
    throw new SDKError(ERROR_CODES.LOUSHO_PROVIDER_ERROR, `The summary model (${usedModel}) answered with no text, so the conversation could not be compacted.`, {
      hint: 'Use another model for summaries, or a strategy that only prunes.',
    });
  }
  const summaryMessage: Message = Object.freeze({ role: 'user', content: `${SUMMARY_HEADING}\n${summary}`, metadata: { compactionSummary: true, summarized: covered.length } });
  return { messages: [summaryMessage, ...pinned, ...messages.slice(end)], pruned: 0, summarized: covered.length };
}

/** Summarizes old turns (see `summarizeOldMessages`) without pruning first. */
export function summarizeStrategy(options: SummarizeStrategyOptions = {}): CompactionStrategy {
  return { name: 'summarize', compact: (messages, ctx) => summarizeOldMessages(messages, ctx, options) };
}

/**
 * Prunes old tool results first (cheap, no model call) and, only if the request is still above the
 * threshold, replaces old turns with a summary written by `model`. The recommended strategy.
 */
export function twoPhaseStrategy(options: SummarizeStrategyOptions & { model: LLMProvider | string }): CompactionStrategy {
  if (typeof options !== 'object' || options === null || (typeof options.model !== 'string' && typeof options.model?.stream !== 'function')) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'twoPhaseStrategy() needs { model }: the provider (or model id) that writes summaries.', { hint: "twoPhaseStrategy({ model: 'gpt-4o-mini' })" });
  }
  return {
    name: 'two-phase',
    async compact(messages, ctx) {
      const first = pruneOldToolResults(messages, ctx);
      let total = ctx.fixedTokens;
      for (const message of first.messages) total += ctx.tokensOf(message);
      if (total <= ctx.targetTokens) return first;
      const second = await summarizeOldMessages(first.messages, ctx, options);
      return { messages: second.messages, pruned: first.pruned, summarized: second.summarized };
    },
  };
}
