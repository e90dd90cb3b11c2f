import { ERROR_CODES } from '@lousho/protocol';
import { abortError, throwIfAborted } from '@lousho/providers';
import { MockProviderError } from '@lousho/providers';
import { StreamAssembler } from '@lousho/providers';
import {
  checkChunkSize,
  checkDelay,
  emitChunks,
  mockResponseChunks,
  validateMockResponse,
  type MockResponse,
} from '@lousho/providers/mock-response';
import type { GenerateOptions, GenerateResult, LLMProvider, StreamChunk } from '@lousho/protocol';

/** What one model call does: reply with text, reply with a response object, or throw the error. */
export type MockModelReply = string | MockResponse | Error;

/** One script step. A function computes the reply from the request it is called with. */
export type MockModelStep =
  | MockModelReply
  | ((request: GenerateOptions) => MockModelReply | Promise<MockModelReply>);

/** Options of `mockModel()`. */
export interface MockModelOptions {
  /** Provider name (default `mock`). */
  name?: string;
  /** Reported default model (default `mock-model`). */
  model?: string;
  /** Wait before each streamed chunk, in ms (default 0). A step's own `delayMs` wins. */
  delayMs?: number;
  /**
   * Characters per streamed text/argument chunk. Default: text word by word (each piece a word with
   * the whitespace before it) and tool arguments in pieces of 8 characters.
   */
  chunkSize?: number;
  /** What a call past the end of the script does: fail (default) or answer with the last step again. */
  whenExhausted?: 'throw' | 'repeat-last';
}

/** A recorded request: what the model was sent, without the signal (frozen transcript messages by reference, the rest copied). */
export type MockModelCall = Omit<GenerateOptions, 'signal'>;

/**
 * A scripted, deterministic LLMProvider for tests. Each model call consumes the next script step
 * and is recorded in `calls`. Steps are consumed when the stream is first read; a call made with an
 * already-aborted signal rejects at once and neither consumes a step nor is recorded.
 */
export class MockModel implements LLMProvider {
  readonly name: string;
  readonly defaultModel: string;
  readonly #script: readonly MockModelStep[];
  readonly #delayMs: number;
  readonly #chunkSize: number | undefined;
  readonly #whenExhausted: 'throw' | 'repeat-last';
  #cursor = 0;
  #callIds = 0;
  #calls: MockModelCall[] = [];

  constructor(script: readonly MockModelStep[], options: MockModelOptions = {}) {
    if (!Array.isArray(script)) {
      throw new MockProviderError(
        'LOUSHO_INVALID_INPUT',
        'mockModel(script): the script must be an array of steps.',
        "Wrap the reply in an array, e.g. mockModel(['Hello!']).",
      );
    }
    checkDelay(options.delayMs, 'mockModel() options');
    checkChunkSize(options.chunkSize, 'mockModel() options');
    script.forEach((step, i) => {
      if (typeof step === 'object' && step !== null && !(step instanceof Error)) {
        validateMockResponse(step, `mockModel() step ${i + 1}`);
      }
    });
    this.#script = [...script];
    this.name = options.name ?? 'mock';
    this.defaultModel = options.model ?? 'mock-model';
    this.#delayMs = options.delayMs ?? 0;
    this.#chunkSize = options.chunkSize;
    this.#whenExhausted = options.whenExhausted ?? 'throw';
  }

  /** Every request received so far, oldest first. */
  get calls(): readonly MockModelCall[] {
    return this.#calls;
  }

  /** The most recent request, or undefined before the first call. */
  get lastCall(): MockModelCall | undefined {
    return this.#calls[this.#calls.length - 1];
  }

  /** Script steps not consumed yet. */
  get remaining(): number {
    return Math.max(0, this.#script.length - this.#cursor);
  }

  /** Forgets recorded calls and rewinds the script (and the `call_<n>` id counter) to the start. */
  reset(): void {
    this.#calls = [];
    this.#cursor = 0;
    this.#callIds = 0;
  }

  /** Throws when script steps were left unused, saying how many. */
  assertExhausted(): void {
    const left = this.remaining;
    if (left === 0) return;
    throw new MockProviderError(
      ERROR_CODES.LOUSHO_MOCK_UNUSED_STEPS,
      `mockModel: ${left} of ${this.#script.length} script ${plural(left, 'step was', 'steps were')} never used ` +
        `(the model was called ${this.#calls.length} ${plural(this.#calls.length, 'time', 'times')}).`,
      'Remove the extra steps, or check `calls` to see why the agent stopped calling the model early.',
    );
  }

  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    throwIfAborted(options.signal);
    this.#calls.push(snapshot(options));
    const step = this.#takeStep();
    const reply = typeof step === 'function' ? await untilAborted(step(options), options.signal) : step;
    throwIfAborted(options.signal);
    const response = toResponse(reply, this.#calls.length);
    const chunks = mockResponseChunks(response, options, {
      chunkSize: this.#chunkSize,
      nextCallId: () => `call_${++this.#callIds}`,
    });
    yield* emitChunks(chunks, response.delayMs ?? this.#delayMs, options.signal);
  }

  async generate(options: GenerateOptions): Promise<GenerateResult> {
    const assembler = new StreamAssembler();
    for await (const chunk of this.stream(options)) assembler.push(chunk);
    return assembler.result();
  }

  #takeStep(): MockModelStep {
    if (this.#cursor < this.#script.length) return this.#script[this.#cursor++] as MockModelStep;
    if (this.#whenExhausted === 'repeat-last' && this.#script.length > 0) {
      return this.#script[this.#script.length - 1] as MockModelStep;
    }
    const steps = this.#script.length;
    throw new MockProviderError(
      'LOUSHO_MOCK_EXHAUSTED',
      `mockModel: the script has ${steps} ${plural(steps, 'step', 'steps')}, but the model was called ` +
        `${this.#calls.length} ${plural(this.#calls.length, 'time', 'times')}.`,
      steps > 0
        ? "Add a step for this call, or pass { whenExhausted: 'repeat-last' } to keep answering with the last step."
        : 'Add a step for this call.',
    );
  }
}

/** A scripted, deterministic LLMProvider that records every request; see MockModel. */
export function mockModel(script: readonly MockModelStep[], options?: MockModelOptions): MockModel {
  return new MockModel(script, options);
}

function toResponse(reply: MockModelReply, callNumber: number): MockResponse {
  if (reply instanceof Error) throw reply;
  if (typeof reply === 'string') return { text: reply };
  validateMockResponse(reply, `mockModel() call ${callNumber}`);
  return reply;
}

/** Settles like `value`, or rejects with an AbortError as soon as `signal` aborts. */
function untilAborted<T>(value: T | Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal || !(value instanceof Promise)) return Promise.resolve(value);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError(signal.reason));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    value.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * What `calls` keeps of a request. The agent's transcript messages are frozen, so they are kept by
 * reference: copying each one again on every call made a long run's log grow with the square of its
 * length. A message that is not frozen (a test calling the model directly) is copied, so a later
 * change to it does not rewrite the log.
 */
function snapshot(options: GenerateOptions): MockModelCall {
  const { signal: _signal, messages, ...rest } = options;
  return { ...copied(rest), messages: messages.map((message) => (Object.isFrozen(message) ? message : copied(message))) };
}

function copied<T>(value: T): T {
  try {
    return structuredClone(value);
  } catch {
    // Non-cloneable extras (e.g. a function someone put in metadata): keep the JSON part.
    return JSON.parse(JSON.stringify(value)) as T;
  }
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}
