import { textOf } from '@lousho/protocol';
import { throwIfAborted } from './abort.js';
import { StreamAssembler } from './generate.js';
import {
  checkChunkSize,
  checkDelay,
  emitChunks,
  mockResponseChunks,
  validateMockResponse,
  type MockResponse,
} from './mock-response.js';
import type { GenerateOptions, GenerateResult, LLMProvider, StreamChunk } from '@lousho/protocol';
import { checkMockProviderOptions } from './option-keys.js';
import type { MockProviderOptions } from './provider-options.js';

export type { MockProviderOptions } from './provider-options.js';

/** Longest slice of the user's message echoed back by the default reply. */
const ECHO_LIMIT = 60;

/**
 * A deterministic provider for demos and tests that need no network: it never calls tools on its
 * own, streams its reply in chunks and reports an estimated usage. For scripted tests that also
 * check what the model was sent, use `mockModel()` from `@lousho/build-ai-agent/testing`.
 */
export class MockLLMProvider implements LLMProvider {
  readonly name = 'mock';
  readonly defaultModel: string;
  readonly #responses: (string | MockResponse)[] | undefined;
  readonly #delayMs: number;
  readonly #chunkSize: number | undefined;
  #requests = 0;
  #callIds = 0;

  constructor(options: MockProviderOptions = {}) {
    checkMockProviderOptions(options);
    checkDelay(options.delayMs, 'createMockProvider()');
    checkChunkSize(options.chunkSize, 'createMockProvider()');
    options.responses?.forEach((response, i) => {
      if (typeof response !== 'string') validateMockResponse(response, `createMockProvider() responses[${i}]`);
    });
    this.defaultModel = options.model ?? 'mock-model';
    this.#responses = options.responses && options.responses.length > 0 ? [...options.responses] : undefined;
    this.#delayMs = options.delayMs ?? 0;
    this.#chunkSize = options.chunkSize;
  }

  /** How many requests it has answered (or started answering). */
  get requestCount(): number {
    return this.#requests;
  }

  /** Runs one model call as a stream of chunks (text, tool calls, one `finish`); see `LLMProvider.stream`. */
  async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
    throwIfAborted(options.signal);
    const response = this.#nextResponse(options);
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

  #nextResponse(options: GenerateOptions): MockResponse {
    const turn = this.#requests++;
    if (!this.#responses) return { text: defaultReply(options) };
    const scripted = this.#responses[turn % this.#responses.length] as string | MockResponse;
    return typeof scripted === 'string' ? { text: scripted } : scripted;
  }
}

/** A deterministic mock provider; see MockLLMProvider. */
export function createMockProvider(options?: MockProviderOptions): MockLLMProvider {
  return new MockLLMProvider(options);
}

function defaultReply(options: GenerateOptions): string {
  const lastUser = [...options.messages].reverse().find((message) => message.role === 'user');
  const text = textOf(lastUser).replace(/\s+/g, ' ').trim();
  if (!text) return 'Mock response.';
  const chars = Array.from(text);
  const echoed = chars.length > ECHO_LIMIT ? `${chars.slice(0, ECHO_LIMIT).join('')}…` : text;
  return `Mock response to: "${echoed}"`;
}
