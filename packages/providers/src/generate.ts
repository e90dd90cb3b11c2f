import type { ToolCall } from '@lousho/protocol';
import { throwIfAborted } from './abort.js';
import { ProviderStreamError } from './errors.js';
import type { GenerateOptions, GenerateResult, LLMProvider, ModelFinishReason, ProviderUsage, StreamChunk } from '@lousho/protocol';

interface PendingCall {
  id: string;
  name: string;
  /** Argument pieces in arrival order; joined once when read. */
  pieces: string[];
}

/**
 * Builds one model turn out of stream chunks as they arrive. Text and argument pieces are
 * collected and joined only when read (and the join is cached), so assembling a turn costs
 * O(total size) however finely the provider splits it.
 *
 * Tool calls are keyed by their `index`: `tool-call-start` opens one, `tool-call-delta` appends to
 * it, and a complete `tool-call` chunk sets (or replaces) it. A stream that ends without a `finish`
 * chunk still yields a result: finish reason `tool_calls` when calls were made, else `stop`, and
 * no usage.
 */
export class StreamAssembler {
  #text: string[] = [];
  #reasoning: string[] = [];
  #calls = new Map<number, PendingCall>();
  #finish: { finishReason: ModelFinishReason; usage?: ProviderUsage } | undefined;
  #orderedCalls: ToolCall[] | undefined;

  /** Adds one chunk. Throws a ProviderStreamError when the chunk breaks the stream contract. */
  push(chunk: StreamChunk): void {
    if (this.#finish) {
      throw new ProviderStreamError(
        `The provider sent a "${chunk.type}" chunk after its "finish" chunk.`,
        'A provider must end each turn with exactly one finish chunk; fix the provider adapter.',
      );
    }
    switch (chunk.type) {
      case 'text-delta':
        if (chunk.text) this.#text.push(chunk.text);
        return;
      case 'reasoning-delta':
        if (chunk.text) this.#reasoning.push(chunk.text);
        return;
      case 'tool-call-start':
        this.#startCall(chunk.index, chunk.id, chunk.name);
        return;
      case 'tool-call-delta':
        this.#appendArguments(chunk.index, chunk.argumentsDelta);
        return;
      case 'tool-call':
        this.#orderedCalls = undefined;
        this.#calls.set(chunk.index, { id: chunk.id, name: chunk.name, pieces: [chunk.arguments] });
        return;
      case 'finish':
        this.#finish = chunk.usage
          ? { finishReason: chunk.finishReason, usage: { ...chunk.usage } }
          : { finishReason: chunk.finishReason };
        return;
      default:
        // Unknown chunk kinds from newer providers are skipped rather than failing the turn.
        return;
    }
  }

  /** The turn's text so far. */
  get text(): string {
    return joinInPlace(this.#text);
  }

  /** The turn's reasoning text so far (providers that stream their reasoning). */
  get reasoning(): string {
    return joinInPlace(this.#reasoning);
  }

  /** The calls so far, ordered by index; `arguments` is the raw JSON text the model produced. */
  get toolCalls(): ToolCall[] {
    if (!this.#orderedCalls) {
      this.#orderedCalls = [...this.#calls.entries()]
        .sort(([a], [b]) => a - b)
        .map(([, call]) => ({ id: call.id, name: call.name, arguments: joinInPlace(call.pieces) }));
    }
    return this.#orderedCalls.map((call) => ({ ...call }));
  }

  /** The provider's reason, or the inferred one when no finish chunk has arrived. */
  get finishReason(): ModelFinishReason {
    if (this.#finish) return this.#finish.finishReason;
    return this.#calls.size > 0 ? 'tool_calls' : 'stop';
  }

  /** Usage from the finish chunk; unset when the provider reported none. */
  get usage(): ProviderUsage | undefined {
    const usage = this.#finish?.usage;
    return usage ? { ...usage } : undefined;
  }

  /** True once the finish chunk has arrived. */
  get done(): boolean {
    return this.#finish !== undefined;
  }

  /** The whole turn as a GenerateResult. */
  result(): GenerateResult {
    const usage = this.usage;
    const result: GenerateResult = {
      text: this.text,
      toolCalls: this.toolCalls,
      finishReason: this.finishReason,
    };
    if (usage) result.usage = usage;
    return result;
  }

  #startCall(index: number, id: string, name: string): void {
    const existing = this.#calls.get(index);
    if (existing) {
      // A repeated start for the same call is harmless; a different call on the same index is not.
      if (existing.id === id && existing.name === name) return;
      throw new ProviderStreamError(
        `The provider started tool call index ${index} twice ("${existing.name}" then "${name}").`,
        'Each tool call in a turn needs its own index; fix the provider adapter.',
      );
    }
    this.#orderedCalls = undefined;
    this.#calls.set(index, { id, name, pieces: [] });
  }

  #appendArguments(index: number, piece: string): void {
    const call = this.#calls.get(index);
    if (!call) {
      throw new ProviderStreamError(
        `The provider sent arguments for tool call index ${index}, which it never started.`,
        'Send a tool-call-start chunk (with id and name) for an index before its tool-call-delta chunks.',
      );
    }
    if (!piece) return;
    this.#orderedCalls = undefined;
    call.pieces.push(piece);
  }
}

/**
 * One whole model turn. Uses the provider's own `generate()` when it has one; otherwise reads
 * `stream()` to the end and assembles the result. Rejects with an AbortError when
 * `options.signal` aborts, even if the provider ignores the signal.
 */
export async function generateFromStream(
  provider: LLMProvider,
  options: GenerateOptions,
): Promise<GenerateResult> {
  throwIfAborted(options.signal);
  if (provider.generate) return provider.generate(options);
  const assembler = new StreamAssembler();
  for await (const chunk of provider.stream(options)) {
    throwIfAborted(options.signal);
    assembler.push(chunk);
  }
  return assembler.result();
}

/** Joins the pieces and keeps the join as the only piece, so repeated reads do not re-join. */
function joinInPlace(pieces: string[]): string {
  if (pieces.length === 0) return '';
  if (pieces.length === 1) return pieces[0] as string;
  const joined = pieces.join('');
  pieces.length = 0;
  pieces.push(joined);
  return joined;
}
