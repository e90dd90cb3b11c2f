import type { Message } from '@lousho/protocol';
import type { LLMProvider, ToolSpec } from '@lousho/protocol';
import { checkCompactionOptions, compactRequest } from './compact.js';
import type { CompactionOptions } from './types.js';

/** What `compactMessages()` takes: the compaction options plus the request the messages are for. */
export interface CompactMessagesOptions extends CompactionOptions {
  /** The model the messages are for (its context window comes from the registry unless `contextWindow` is given). */
  model: string;
  /** Counted with the messages, as in a request. */
  system?: string;
  tools?: readonly ToolSpec[];
  /** Output tokens to keep free in the window. */
  maxTokens?: number;
  /** Writes summaries for strategies that need a model and were given none. */
  provider?: LLMProvider;
  signal?: AbortSignal;
}

/**
 * Compacts a transcript once, by hand, exactly as the compaction hook does before a model call:
 * returns a new array (the input is not changed), the same messages when nothing was needed.
 */
export async function compactMessages(messages: readonly Message[], options: CompactMessagesOptions): Promise<Message[]> {
  const { model, system, tools, maxTokens, provider, signal, ...compaction } = options ?? ({} as CompactMessagesOptions);
  checkCompactionOptions(compaction);
  const request = { messages: messages.map((m) => (Object.isFrozen(m) ? m : Object.freeze({ ...m }))), model, system, tools, maxTokens };
  await compactRequest(request, compaction, { step: 0, provider, signal });
  return request.messages;
}
