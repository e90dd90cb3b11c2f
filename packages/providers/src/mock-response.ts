/**
 * Turns a scripted reply into the stream chunks a real provider would send. Shared by
 * `createMockProvider()` (demos) and `mockModel()` (tests) so both stream the same way.
 */
import { textOf } from '@lousho/protocol';
import { sleep, throwIfAborted } from './abort.js';
import { MockProviderError } from './errors.js';
import type { GenerateOptions, ModelFinishReason, ProviderUsage, StreamChunk } from '@lousho/protocol';

/** A tool call the mock model makes. */
export interface MockToolCall {
  name: string;
  /** The arguments, sent as JSON text (default `{}`). */
  args?: unknown;
  /** Sent verbatim instead of `args`, e.g. to test how invalid JSON is handled. Wins over `args`. */
  rawArguments?: string;
  /** Defaults to a deterministic `call_<n>`, counted per mock (1, 2, ...). */
  id?: string;
}

/** One scripted model reply. */
export interface MockResponse {
  text?: string;
  /** Streamed as `reasoning-delta` chunks before the text. */
  reasoning?: string;
  toolCalls?: MockToolCall[];
  /** Defaults to `tool_calls` when the reply has calls, else `stop`. */
  finishReason?: ModelFinishReason;
  /**
   * Reported on the finish chunk. Default: an estimate of about four characters per token from the
   * request's and the reply's lengths. `null`: the provider reports no usage at all.
   */
  usage?: ProviderUsage | null;
  /** Wait before each chunk of this reply, in ms (overrides the mock's `delayMs`). */
  delayMs?: number;
  /** Characters per text/argument chunk for this reply (overrides the mock's `chunkSize`). */
  chunkSize?: number;
}

/** How a mock streams: its defaults plus the id counter it owns. */
export interface MockStreamSettings {
  delayMs?: number;
  chunkSize?: number;
  /** Returns the next deterministic tool-call id. */
  nextCallId: () => string;
}

/** Argument pieces when no chunk size is set: small enough that calls arrive in several deltas. */
const DEFAULT_ARGUMENT_PIECE = 8;

/**
 * Splits text for streaming. With a `chunkSize`, pieces of that many characters (code points, so
 * an emoji is never cut in half). Without one, word by word: each piece is a word with the
 * whitespace before it. The pieces always join back to the exact input.
 */
export function splitForStreaming(text: string, chunkSize?: number): string[] {
  if (text === '') return [];
  if (chunkSize === undefined) return text.match(/\s*\S+(?:\s+$)?|\s+$/g) ?? [text];
  const chars = Array.from(text);
  const pieces: string[] = [];
  for (let i = 0; i < chars.length; i += chunkSize) pieces.push(chars.slice(i, i + chunkSize).join(''));
  return pieces;
}

/** A deterministic usage estimate: about four characters per token. */
export function estimateUsage(request: Pick<GenerateOptions, 'messages' | 'system'>, replyChars: number): ProviderUsage {
  let promptChars = request.system?.length ?? 0;
  for (const message of request.messages) {
    promptChars += textOf(message).length;
    for (const call of message.toolCalls ?? []) promptChars += call.name.length + call.arguments.length;
  }
  return { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(replyChars / 4) };
}

/** Checks a scripted reply up front, so a bad script fails with a clear message. */
export function validateMockResponse(response: MockResponse, where: string): void {
  const fail = (problem: string, hint: string): never => {
    throw new MockProviderError('LOUSHO_INVALID_INPUT', `${where}: ${problem}.`, hint);
  };
  if (typeof response !== 'object' || response === null) {
    fail('a step must be a string, a response object, an Error or a function', 'Fix the script entry.');
  }
  if (response.text !== undefined && typeof response.text !== 'string') fail('`text` must be a string', 'Pass text as a string.');
  if (response.toolCalls !== undefined && !Array.isArray(response.toolCalls)) {
    fail('`toolCalls` must be an array', 'Pass toolCalls as an array of { name, args }.');
  }
  for (const call of response.toolCalls ?? []) {
    if (typeof call?.name !== 'string' || call.name === '') {
      fail('every tool call needs a non-empty `name`', 'Add the tool name, e.g. { name: "get_weather", args: { city: "Paris" } }.');
    }
    if (call.rawArguments !== undefined && typeof call.rawArguments !== 'string') {
      fail(`\`rawArguments\` of "${call.name}" must be a string`, 'Pass the raw argument text as a string.');
    }
  }
  checkChunkSize(response.chunkSize, where);
  checkDelay(response.delayMs, where);
}

export function checkChunkSize(chunkSize: number | undefined, where: string): void {
  if (chunkSize === undefined) return;
  if (!Number.isInteger(chunkSize) || chunkSize < 1) {
    throw new MockProviderError(
      'LOUSHO_INVALID_INPUT',
      `${where}: chunkSize must be a positive integer, got ${String(chunkSize)}.`,
      'Pass a whole number of characters such as 4, or leave it unset to stream word by word.',
    );
  }
}

export function checkDelay(delayMs: number | undefined, where: string): void {
  if (delayMs === undefined) return;
  if (!Number.isFinite(delayMs) || delayMs < 0) {
    throw new MockProviderError(
      'LOUSHO_INVALID_INPUT',
      `${where}: delayMs must be a finite number >= 0, got ${String(delayMs)}.`,
      'Pass a delay in milliseconds, or leave it unset for no delay.',
    );
  }
}

/** The chunks of one reply, in the order a provider sends them. */
export function mockResponseChunks(
  response: MockResponse,
  request: Pick<GenerateOptions, 'messages' | 'system'>,
  settings: MockStreamSettings,
): StreamChunk[] {
  const chunkSize = response.chunkSize ?? settings.chunkSize;
  const chunks: StreamChunk[] = [];
  const text = response.text ?? '';
  const reasoning = response.reasoning ?? '';
  for (const piece of splitForStreaming(reasoning, chunkSize)) chunks.push({ type: 'reasoning-delta', text: piece });
  for (const piece of splitForStreaming(text, chunkSize)) chunks.push({ type: 'text-delta', text: piece });

  let replyChars = text.length + reasoning.length;
  const calls = response.toolCalls ?? [];
  calls.forEach((call, index) => {
    const args = call.rawArguments ?? stringifyArgs(call);
    replyChars += call.name.length + args.length;
    chunks.push({ type: 'tool-call-start', index, id: call.id ?? settings.nextCallId(), name: call.name });
    for (const piece of splitForStreaming(args, chunkSize ?? DEFAULT_ARGUMENT_PIECE)) {
      chunks.push({ type: 'tool-call-delta', index, argumentsDelta: piece });
    }
  });

  const finishReason = response.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  const usage = response.usage === undefined ? estimateUsage(request, replyChars) : response.usage;
  chunks.push(usage ? { type: 'finish', finishReason, usage: { ...usage } } : { type: 'finish', finishReason });
  return chunks;
}

/**
 * Streams chunks, waiting `delayMs` before each one. Stops with an AbortError as soon as
 * `signal` aborts, including in the middle of a wait.
 */
export async function* emitChunks(
  chunks: StreamChunk[],
  delayMs: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<StreamChunk> {
  for (const chunk of chunks) {
    if (delayMs > 0) await sleep(delayMs, signal);
    else throwIfAborted(signal);
    yield chunk;
  }
}

function stringifyArgs(call: MockToolCall): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(call.args ?? {});
  } catch (cause) {
    throw new MockProviderError(
      'LOUSHO_INVALID_INPUT',
      `mock tool call "${call.name}": its args cannot be turned into JSON.`,
      'Use plain JSON data for args, or pass the exact text as rawArguments.',
      { cause },
    );
  }
  if (json === undefined) {
    throw new MockProviderError(
      'LOUSHO_INVALID_INPUT',
      `mock tool call "${call.name}": its args are not JSON data.`,
      'Use plain JSON data for args, or pass the exact text as rawArguments.',
    );
  }
  return json;
}
