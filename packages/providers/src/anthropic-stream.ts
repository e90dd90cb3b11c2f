/**
 * Messages API stream events → StreamChunks. A turn streams as `message_start` (with the input
 * usage), then per content block `content_block_start` / `content_block_delta`* /
 * `content_block_stop`, then `message_delta` (stop reason, output usage) and `message_stop`.
 * `ping` events may appear anywhere; an `error` event reports a failure mid-stream.
 */
import type { AnswerTool } from './anthropic-request.js';
import type { ServerSentEvent } from './event-stream.js';
import { ProviderResponseError, redactSecrets } from './http-error.js';
import type { ProviderIdentity } from './transport.js';
import type { ModelFinishReason, ProviderUsage, StreamChunk } from '@lousho/protocol';
import { count, isRecord, malformedChunk, parseEventJson, streamCut } from './wire.js';

type Block =
  | { kind: 'text' }
  | { kind: 'reasoning' }
  | { kind: 'tool'; index: number; sawArguments: boolean; initialInput: string | undefined }
  /** The structured-answer tool's input: the answer's text (see `AnswerTool`). */
  | { kind: 'answer'; json: string; initialInput: string | undefined }
  /** Blocks we do not surface (server-side tool use, redacted thinking, ...). */
  | { kind: 'other' };

interface UsageCounts {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheCreation?: number;
}

export class AnthropicStreamDecoder {
  readonly #who: ProviderIdentity;
  readonly #answer: AnswerTool | undefined;
  #blocks = new Map<number, Block>();
  #nextCall = 0;
  #stopReason: string | undefined;
  #usage: UsageCounts = {};
  #done = false;

  /** `answer`: the request's structured-answer tool, whose input is streamed as the answer's text. */
  constructor(who: ProviderIdentity, answer?: AnswerTool) {
    this.#who = who;
    this.#answer = answer;
  }

  /** True once `message_stop` arrived. */
  get done(): boolean {
    return this.#done;
  }

  decode(event: ServerSentEvent): StreamChunk[] {
    if (this.#done) return [];
    const data = parseEventJson(event, this.#who);
    const type = typeof data.type === 'string' ? data.type : event.event;
    switch (type) {
      case 'message_start': {
        const message = isRecord(data.message) ? data.message : {};
        this.#readUsage(message.usage);
        return [];
      }
      case 'content_block_start':
        return this.#startBlock(data);
      case 'content_block_delta':
        return this.#delta(data);
      case 'content_block_stop':
        return this.#stopBlock(data);
      case 'message_delta': {
        const delta = isRecord(data.delta) ? data.delta : {};
        if (typeof delta.stop_reason === 'string') this.#stopReason = delta.stop_reason;
        this.#readUsage(data.usage);
        return [];
      }
      case 'message_stop':
        this.#done = true;
        return [];
      case 'error':
        throw this.#reportedError(data);
      default:
        // `ping` and event types added after this was written.
        return [];
    }
  }

  /**
   * The closing `finish` chunk once the body has ended. Without `message_stop` the turn counts as
   * finished only if the stop reason already came; otherwise the stream was cut.
   */
  end(): StreamChunk {
    if (!this.#done && this.#stopReason === undefined) throw streamCut(this.#who);
    const finishReason = mapStopReason(this.#stopReason, this.#nextCall > 0);
    const usage = this.#providerUsage();
    return usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason };
  }

  #startBlock(data: Record<string, unknown>): StreamChunk[] {
    const index = this.#blockIndex(data);
    const block = isRecord(data.content_block) ? data.content_block : undefined;
    if (!block) throw malformedChunk(this.#who, 'a content_block_start event without a content_block');
    switch (block.type) {
      case 'text': {
        this.#blocks.set(index, { kind: 'text' });
        return typeof block.text === 'string' && block.text ? [{ type: 'text-delta', text: block.text }] : [];
      }
      case 'thinking': {
        this.#blocks.set(index, { kind: 'reasoning' });
        return typeof block.thinking === 'string' && block.thinking ? [{ type: 'reasoning-delta', text: block.thinking }] : [];
      }
      case 'tool_use': {
        if (typeof block.id !== 'string' || typeof block.name !== 'string') {
          throw malformedChunk(this.#who, 'a tool_use block without an id or a name');
        }
        // The input streams as JSON pieces; a non-empty `input` here means it was sent whole.
        const initial = isRecord(block.input) && Object.keys(block.input).length > 0 ? JSON.stringify(block.input) : undefined;
        if (block.name === this.#answer?.name) {
          this.#blocks.set(index, { kind: 'answer', json: '', initialInput: initial });
          return [];
        }
        const callIndex = this.#nextCall++;
        this.#blocks.set(index, { kind: 'tool', index: callIndex, sawArguments: false, initialInput: initial });
        return [{ type: 'tool-call-start', index: callIndex, id: block.id, name: block.name }];
      }
      default:
        this.#blocks.set(index, { kind: 'other' });
        return [];
    }
  }

  #delta(data: Record<string, unknown>): StreamChunk[] {
    const index = this.#blockIndex(data);
    const block = this.#blocks.get(index);
    if (!block) throw malformedChunk(this.#who, `a content_block_delta for block ${index}, which never started`);
    const delta = isRecord(data.delta) ? data.delta : {};
    switch (delta.type) {
      case 'text_delta':
        return typeof delta.text === 'string' && delta.text ? [{ type: 'text-delta', text: delta.text }] : [];
      case 'thinking_delta':
        return typeof delta.thinking === 'string' && delta.thinking ? [{ type: 'reasoning-delta', text: delta.thinking }] : [];
      case 'input_json_delta': {
        if (block.kind === 'answer') return this.#answerPiece(block, delta.partial_json);
        if (block.kind !== 'tool') return [];
        const piece = typeof delta.partial_json === 'string' ? delta.partial_json : '';
        if (!piece) return [];
        block.sawArguments = true;
        return [{ type: 'tool-call-delta', index: block.index, argumentsDelta: piece }];
      }
      default:
        // signature_delta, citations_delta and newer kinds carry nothing the transcript keeps.
        return [];
    }
  }

  /** An object answer streams as it comes; a wrapped one (`{ value }`) is unwrapped once whole. */
  #answerPiece(block: Extract<Block, { kind: 'answer' }>, piece: unknown): StreamChunk[] {
    if (typeof piece !== 'string' || !piece) return [];
    block.json += piece;
    return this.#answer!.wrapped ? [] : [{ type: 'text-delta', text: piece }];
  }

  #stopBlock(data: Record<string, unknown>): StreamChunk[] {
    const block = this.#blocks.get(this.#blockIndex(data));
    if (block?.kind === 'answer') {
      const json = block.json || block.initialInput || '';
      if (!this.#answer!.wrapped) return block.json || !json ? [] : [{ type: 'text-delta', text: json }];
      let value: unknown;
      try {
        value = (JSON.parse(json) as { value?: unknown }).value;
      } catch {
        // Not JSON after all: passed on as is, so the agent's output check reports it to the model.
        return json ? [{ type: 'text-delta', text: json }] : [];
      }
      return [{ type: 'text-delta', text: JSON.stringify(value ?? null) }];
    }
    if (block?.kind !== 'tool' || block.sawArguments) return [];
    // A tool with no parameters streams no JSON at all: its arguments are the empty object.
    return [{ type: 'tool-call-delta', index: block.index, argumentsDelta: block.initialInput ?? '{}' }];
  }

  #blockIndex(data: Record<string, unknown>): number {
    if (typeof data.index !== 'number') throw malformedChunk(this.#who, `a ${String(data.type)} event without a block index`);
    return data.index;
  }

  /** `message_start` has the input counts; `message_delta` has cumulative counts (output at least). */
  #readUsage(raw: unknown): void {
    if (!isRecord(raw)) return;
    const input = count(raw.input_tokens);
    const output = count(raw.output_tokens);
    const cacheRead = count(raw.cache_read_input_tokens);
    const cacheCreation = count(raw.cache_creation_input_tokens);
    if (input !== undefined) this.#usage.input = input;
    if (output !== undefined) this.#usage.output = output;
    if (cacheRead !== undefined) this.#usage.cacheRead = cacheRead;
    if (cacheCreation !== undefined) this.#usage.cacheCreation = cacheCreation;
  }

  /**
   * Anthropic counts cached input apart from `input_tokens`; ProviderUsage's `promptTokens` is all
   * input (as with OpenAI), with the cache reads repeated in `cachedInputTokens`.
   */
  #providerUsage(): ProviderUsage | undefined {
    const { input, output, cacheRead, cacheCreation } = this.#usage;
    const usage: ProviderUsage = {};
    if (input !== undefined || cacheRead !== undefined || cacheCreation !== undefined) {
      usage.promptTokens = (input ?? 0) + (cacheRead ?? 0) + (cacheCreation ?? 0);
    }
    if (output !== undefined) usage.completionTokens = output;
    if (cacheRead !== undefined) usage.cachedInputTokens = cacheRead;
    return Object.keys(usage).length > 0 ? usage : undefined;
  }

  #reportedError(data: Record<string, unknown>): ProviderResponseError {
    const error = isRecord(data.error) ? data.error : {};
    const type = typeof error.type === 'string' ? error.type : undefined;
    const message = typeof error.message === 'string' ? error.message : 'no details';
    const retryable = type === 'overloaded_error' || type === 'api_error' || type === 'rate_limit_error' || type === 'timeout_error';
    return new ProviderResponseError({
      provider: this.#who.provider,
      message: redactSecrets(`${this.#who.label} reported an error in the middle of its stream${type ? ` (${type})` : ''}: ${message}.`, this.#who.secrets),
      hint: retryable ? 'The API is busy or had a temporary problem: try again.' : 'Check the model id and the request options.',
      retryable,
      ...(type ? { apiErrorType: type } : {}),
    });
  }
}

/** Anthropic's stop reason → ours. */
export function mapStopReason(reason: string | undefined, madeCalls: boolean): ModelFinishReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
    case 'pause_turn':
      return madeCalls ? 'tool_calls' : 'stop';
    case 'tool_use':
      // The structured-answer tool is the answer, not a call.
      return madeCalls ? 'tool_calls' : 'stop';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content_filter';
    default:
      return madeCalls ? 'tool_calls' : 'stop';
  }
}
