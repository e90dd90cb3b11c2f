/**
 * Chat Completions stream chunks → StreamChunks. The API sends `data: {chat.completion.chunk}`
 * events and ends with `data: [DONE]`; with `stream_options.include_usage` the last chunk before
 * it has empty `choices` and the turn's `usage`. Tool calls arrive as deltas keyed by `index`:
 * the first delta of a call has its `id` and `function.name`, later ones only argument pieces.
 */
import type { ServerSentEvent } from './event-stream.js';
import { isRetryableStatus, ProviderResponseError, redactSecrets } from './http-error.js';
import type { ProviderIdentity } from './transport.js';
import type { ModelFinishReason, ProviderUsage, StreamChunk } from '@lousho/protocol';
import { count, generatedCallId, isRecord, malformedChunk, parseEventJson, streamCut, type JsonObject } from './wire.js';

interface CallSlot {
  /** Our index for the call (the order calls were started in). */
  index: number;
  id: string | undefined;
  name: string | undefined;
  started: boolean;
  /** Argument pieces that came before the call's name (some servers send them first). */
  early: string[];
}

export class OpenAIStreamDecoder {
  readonly #who: ProviderIdentity;
  /** The API's call index → our slot. */
  #slots = new Map<number, CallSlot>();
  #nextIndex = 0;
  #finishReason: string | undefined;
  #usage: ProviderUsage | undefined;
  #done = false;

  constructor(who: ProviderIdentity) {
    this.#who = who;
  }

  /** True once `[DONE]` arrived: nothing more will come. */
  get done(): boolean {
    return this.#done;
  }

  /** The chunks one event yields (often one, sometimes none or several). */
  decode(event: ServerSentEvent): StreamChunk[] {
    if (this.#done) return [];
    if (event.data.trim() === '[DONE]') {
      this.#done = true;
      return [];
    }
    const chunk = parseEventJson(event, this.#who);
    if (event.event === 'error' || chunk.error !== undefined) throw this.#reportedError(chunk);

    const out: StreamChunk[] = [];
    if (chunk.usage !== undefined && chunk.usage !== null) this.#usage = readUsage(chunk.usage) ?? this.#usage;
    const choices = chunk.choices;
    if (choices === undefined || choices === null) return out;
    if (!Array.isArray(choices)) throw malformedChunk(this.#who, 'a chunk whose `choices` is not an array');
    // One completion is requested (n = 1), so only choice 0 matters.
    const choice = choices.find((c) => isRecord(c) && (c.index === undefined || c.index === 0));
    if (!isRecord(choice)) return out;
    const delta = choice.delta;
    if (isRecord(delta)) {
      const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
      if (typeof reasoning === 'string' && reasoning) out.push({ type: 'reasoning-delta', text: reasoning });
      if (typeof delta.content === 'string' && delta.content) out.push({ type: 'text-delta', text: delta.content });
      // A structured-output refusal is the model's answer too: show it rather than an empty reply.
      if (typeof delta.refusal === 'string' && delta.refusal) out.push({ type: 'text-delta', text: delta.refusal });
      if (delta.tool_calls !== undefined && delta.tool_calls !== null) this.#toolCalls(delta.tool_calls, out);
    }
    if (typeof choice.finish_reason === 'string' && choice.finish_reason) this.#finishReason = choice.finish_reason;
    return out;
  }

  /**
   * The closing `finish` chunk once the body has ended. A body without `[DONE]` is accepted only
   * when the model already gave its finish reason (some compatible servers omit the marker);
   * otherwise the stream was cut.
   */
  end(): StreamChunk {
    if (!this.#done && this.#finishReason === undefined) throw streamCut(this.#who);
    for (const slot of this.#slots.values()) {
      if (!slot.started) throw malformedChunk(this.#who, 'tool-call arguments for a call that never got a name');
    }
    const madeCalls = this.#nextIndex > 0;
    let finishReason = mapFinishReason(this.#finishReason, madeCalls);
    // Some servers say `stop` after calling tools; the calls are what the loop must act on.
    if (finishReason === 'stop' && madeCalls) finishReason = 'tool_calls';
    return this.#usage ? { type: 'finish', finishReason, usage: this.#usage } : { type: 'finish', finishReason };
  }

  #toolCalls(raw: unknown, out: StreamChunk[]): void {
    if (!Array.isArray(raw)) throw malformedChunk(this.#who, 'a chunk whose `tool_calls` is not an array');
    raw.forEach((entry, position) => {
      if (!isRecord(entry)) throw malformedChunk(this.#who, 'a tool-call delta that is not an object');
      const apiIndex = typeof entry.index === 'number' ? entry.index : position;
      const fn = isRecord(entry.function) ? entry.function : {};
      const id = typeof entry.id === 'string' && entry.id ? entry.id : undefined;
      const name = typeof fn.name === 'string' && fn.name ? fn.name : undefined;
      const args = typeof fn.arguments === 'string' ? fn.arguments : isRecord(fn.arguments) ? JSON.stringify(fn.arguments) : '';

      let slot = this.#slots.get(apiIndex);
      // A new id and name on an index already in use is a new call (servers that send index 0 for every call).
      if (!slot || (slot.started && id !== undefined && name !== undefined && id !== slot.id)) {
        slot = { index: this.#nextIndex++, id: undefined, name: undefined, started: false, early: [] };
        this.#slots.set(apiIndex, slot);
      }
      if (id !== undefined && slot.id === undefined) slot.id = id;
      if (name !== undefined && slot.name === undefined) slot.name = name;
      if (!slot.started) {
        if (slot.name === undefined) {
          if (args) slot.early.push(args);
          return;
        }
        slot.started = true;
        slot.id ??= generatedCallId();
        out.push({ type: 'tool-call-start', index: slot.index, id: slot.id, name: slot.name });
        if (slot.early.length > 0) {
          out.push({ type: 'tool-call-delta', index: slot.index, argumentsDelta: slot.early.join('') });
          slot.early = [];
        }
      }
      if (args) out.push({ type: 'tool-call-delta', index: slot.index, argumentsDelta: args });
    });
  }

  /** An error the API reported inside the stream (`{"error": {...}}`), e.g. OpenRouter's upstream failures. */
  #reportedError(chunk: JsonObject): ProviderResponseError {
    const error = isRecord(chunk.error) ? chunk.error : {};
    const rawMessage = typeof chunk.error === 'string' ? chunk.error : typeof error.message === 'string' ? error.message : 'no details';
    const status = typeof error.code === 'number' ? error.code : typeof error.status === 'number' ? error.status : undefined;
    const type = typeof error.type === 'string' ? error.type : typeof error.code === 'string' ? error.code : undefined;
    const retryable =
      (status !== undefined && isRetryableStatus(status)) || /server_error|rate_limit|overloaded|timeout/i.test(type ?? '');
    return new ProviderResponseError({
      provider: this.#who.provider,
      message: redactSecrets(
        `${this.#who.label} reported an error in the middle of its stream${status !== undefined ? ` (status ${status})` : ''}: ${rawMessage}.`,
        this.#who.secrets,
      ),
      hint: retryable ? 'The provider had a temporary problem: try again.' : 'Check the model id and the request options.',
      retryable,
      ...(type ? { apiErrorType: type } : {}),
    });
  }
}

/** The API's finish reason → ours. Unknown reasons from compatible servers count as a normal stop. */
export function mapFinishReason(reason: string | undefined, madeCalls: boolean): ModelFinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'content_filter':
      return 'content_filter';
    case 'error':
      return 'error';
    default:
      return madeCalls ? 'tool_calls' : 'stop';
  }
}

/**
 * `usage` → ProviderUsage: prompt and completion tokens, plus the cached prompt tokens and the
 * reasoning tokens when the API breaks them out. Undefined when it holds no counts at all.
 */
export function readUsage(raw: unknown): ProviderUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: ProviderUsage = {};
  const prompt = count(raw.prompt_tokens);
  const completion = count(raw.completion_tokens);
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  const cached = isRecord(raw.prompt_tokens_details) ? count(raw.prompt_tokens_details.cached_tokens) : undefined;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  const reasoning = isRecord(raw.completion_tokens_details) ? count(raw.completion_tokens_details.reasoning_tokens) : undefined;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.keys(usage).length > 0 ? usage : undefined;
}
