import type { Message } from '@lousho/protocol';
import { isPinned } from './pin.js';
import type { CompactionContext, CompactionResult, CompactionStrategy } from './types.js';

/** The text that replaces a pruned tool result. */
export function prunedMarker(toolName: string, chars: number): string {
  return `[pruned: ${toolName} result, ${chars} chars]`;
}

function isPrunable(message: Message): boolean {
  return message.role === 'tool' && !isPinned(message) && message.metadata?.pruned !== true;
}

function pruned(message: Message): Message {
  const chars = typeof message.content === 'string' ? message.content.length : JSON.stringify(message.content).length;
  return Object.freeze({ ...message, content: prunedMarker(message.toolName ?? 'tool', chars), metadata: { ...message.metadata, pruned: true } });
}

/** Index of the first message of the newest `protectedTokens` worth of messages. */
export function protectedStart(messages: readonly Message[], ctx: Pick<CompactionContext, 'protectedTokens' | 'tokensOf'>): number {
  let tokens = 0;
  let i = messages.length;
  while (i > 0 && tokens < ctx.protectedTokens) tokens += ctx.tokensOf(messages[--i]!);
  return i;
}

/**
 * Replaces every tool result older than the protected tail (and not pinned) with a
 * `[pruned: <tool> result, N chars]` marker. The call and its result stay in the transcript, so it
 * remains valid for every provider; the model still sees which tools ran.
 */
export function pruneOldToolResults(messages: readonly Message[], ctx: Pick<CompactionContext, 'protectedTokens' | 'tokensOf'>): CompactionResult {
  const end = protectedStart(messages, ctx);
  const out = messages.slice();
  let count = 0;
  for (let i = 0; i < end; i++) {
    if (!isPrunable(out[i]!)) continue;
    out[i] = pruned(out[i]!);
    count++;
  }
  return { messages: out, pruned: count, summarized: 0 };
}

/**
 * Prunes tool results oldest first, the protected tail included, until the messages take at most
 * `budget` tokens: the last resort that keeps a request inside the window.
 */
export function pruneUntil(messages: Message[], budget: number, tokensOf: (message: Message) => number): number {
  let total = 0;
  for (const message of messages) total += tokensOf(message);
  let count = 0;
  for (let i = 0; i < messages.length && total > budget; i++) {
    const message = messages[i]!;
    if (!isPrunable(message)) continue;
    const replacement = pruned(message);
    total += tokensOf(replacement) - tokensOf(message);
    messages[i] = replacement;
    count++;
  }
  return count;
}

/** The default strategy: prune old tool results (see `pruneOldToolResults`). */
export function pruneStrategy(): CompactionStrategy {
  return { name: 'prune', compact: (messages, ctx) => pruneOldToolResults(messages, ctx) };
}
