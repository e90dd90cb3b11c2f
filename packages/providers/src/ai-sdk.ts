/**
 * Any language model of the `ai` SDK (the LanguageModelV2 / V3 specification of
 * `@ai-sdk/provider`: `@ai-sdk/openai`, `@ai-sdk/google`, `@ai-sdk/mistral`, ...) as an
 * LLMProvider. The types below are structural copies of the parts of that specification used
 * here, so core takes no dependency on the SDK: bring your own `@ai-sdk/*` package.
 */
import { textOf, type ContentPart, type Message } from '@lousho/protocol';
import { abortError, isAbortError, throwIfAborted } from './abort.js';
import { ProviderHttpError, redactSecrets } from './http-error.js';
import { parseDataUrl, sniffImageType } from './media.js';
import { abortable } from './transport.js';
import type { GenerateOptions, LLMProvider, ModelFinishReason, ProviderUsage, StreamChunk } from '@lousho/protocol';
import { count, isRecord } from './wire.js';
import { unresolvedAttachment } from '@lousho/protocol';

/** The part of an `ai` SDK LanguageModelV2/V3 this adapter uses. */
export interface AISDKLanguageModel {
  readonly specificationVersion: 'v2' | 'v3';
  /** e.g. `openai.chat`. */
  readonly provider: string;
  readonly modelId: string;
  /** The SDK model's streaming call, which `fromAISDKModel()` drives. */
  doStream(options: AISDKCallOptions): PromiseLike<{ stream: ReadableStream<AISDKStreamPart> }>;
}

/** The call options this adapter sends (a subset of LanguageModelV2/V3CallOptions). */
export interface AISDKCallOptions {
  prompt: Record<string, unknown>[];
  tools?: { type: 'function'; name: string; description?: string; inputSchema: Record<string, unknown> }[];
  responseFormat?: { type: 'json'; schema?: Record<string, unknown> };
  maxOutputTokens?: number;
  temperature?: number;
  abortSignal?: AbortSignal;
}

/** A stream part, loosely typed: only `type` is relied on before a field is checked. */
export type AISDKStreamPart = { type: string } & Record<string, unknown>;

/** Options of `fromAISDKModel()`. */
export interface FromAISDKModelOptions {
  /** The provider name the agent reports (default: the SDK provider id before the dot, e.g. `openai`). */
  name?: string;
}

/**
 * Wraps an `ai` SDK language model, e.g. `fromAISDKModel(openai('gpt-4o-mini'))` with
 * `import { openai } from '@ai-sdk/openai'`. Text, reasoning, streamed tool calls, finish reasons
 * and usage (with cached and reasoning tokens) are mapped; tools the provider runs itself are
 * skipped. HTTP failures become ProviderHttpErrors, so withRetry() and withFallback() treat them
 * like the built-in providers' errors.
 */
export function fromAISDKModel(model: AISDKLanguageModel, options: FromAISDKModelOptions = {}): LLMProvider {
  const name = options.name ?? model.provider.split('.')[0] ?? model.provider;
  return {
    name,
    defaultModel: model.modelId,
    stream: (request) => streamAISDK(model, name, request),
  };
}

async function* streamAISDK(model: AISDKLanguageModel, name: string, request: GenerateOptions): AsyncGenerator<StreamChunk> {
  throwIfAborted(request.signal);
  let result: { stream: ReadableStream<AISDKStreamPart> };
  try {
    result = await abortable(Promise.resolve(model.doStream(toCallOptions(request))), request.signal);
  } catch (error) {
    throw normalizeError(error, name, request.signal);
  }
  const reader = result.stream.getReader();
  const state = { calls: new Map<string, number>(), nextIndex: 0, finished: false };
  let completed = false;
  try {
    for (;;) {
      let read: ReadableStreamReadResult<AISDKStreamPart>;
      try {
        read = await abortable(reader.read(), request.signal);
      } catch (error) {
        throw normalizeError(error, name, request.signal);
      }
      if (read.done) break;
      const part = read.value;
      if (part.type === 'error') throw normalizeError(part.error, name, request.signal);
      for (const chunk of toChunks(part, state)) yield chunk;
      if (state.finished) break;
    }
    completed = true;
    if (!state.finished) yield { type: 'finish', finishReason: state.nextIndex > 0 ? 'tool_calls' : 'stop' };
  } finally {
    if (!completed) reader.cancel().catch(() => {});
    else reader.releaseLock();
  }
}

function toChunks(part: AISDKStreamPart, state: { calls: Map<string, number>; nextIndex: number; finished: boolean }): StreamChunk[] {
  switch (part.type) {
    case 'text-delta': {
      const text = typeof part.delta === 'string' ? part.delta : typeof part.textDelta === 'string' ? part.textDelta : '';
      return text ? [{ type: 'text-delta', text }] : [];
    }
    case 'reasoning-delta': {
      const text = typeof part.delta === 'string' ? part.delta : '';
      return text ? [{ type: 'reasoning-delta', text }] : [];
    }
    case 'tool-input-start': {
      if (part.providerExecuted === true || typeof part.id !== 'string' || typeof part.toolName !== 'string') return [];
      const index = state.nextIndex++;
      state.calls.set(part.id, index);
      return [{ type: 'tool-call-start', index, id: part.id, name: part.toolName }];
    }
    case 'tool-input-delta': {
      const index = typeof part.id === 'string' ? state.calls.get(part.id) : undefined;
      if (index === undefined || typeof part.delta !== 'string' || !part.delta) return [];
      return [{ type: 'tool-call-delta', index, argumentsDelta: part.delta }];
    }
    case 'tool-call': {
      if (part.providerExecuted === true || typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string') return [];
      let index = state.calls.get(part.toolCallId);
      if (index === undefined) {
        index = state.nextIndex++;
        state.calls.set(part.toolCallId, index);
      }
      // The complete input is authoritative: it replaces whatever pieces streamed before it.
      const input = typeof part.input === 'string' ? part.input : JSON.stringify(part.input ?? {});
      return [{ type: 'tool-call', index, id: part.toolCallId, name: part.toolName, arguments: input || '{}' }];
    }
    case 'finish': {
      state.finished = true;
      const finishReason = mapFinishReason(part.finishReason, state.nextIndex > 0);
      const usage = readUsage(part.usage);
      return [usage ? { type: 'finish', finishReason, usage } : { type: 'finish', finishReason }];
    }
    default:
      // stream-start, response-metadata, text-start/end, tool-result of provider-run tools, sources, files, raw.
      return [];
  }
}

/** V2 sends the reason as a string; V3 as `{ unified, raw }`. */
function mapFinishReason(raw: unknown, madeCalls: boolean): ModelFinishReason {
  const reason = isRecord(raw) ? raw.unified : raw;
  switch (reason) {
    case 'stop':
      return madeCalls ? 'tool_calls' : 'stop';
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    case 'error':
      return 'error';
    default:
      return madeCalls ? 'tool_calls' : 'stop';
  }
}

/** V2 usage has flat counts; V3 nests them (`inputTokens.total`, `inputTokens.cacheRead`, ...). */
function readUsage(raw: unknown): ProviderUsage | undefined {
  if (!isRecord(raw)) return undefined;
  const usage: ProviderUsage = {};
  const input = raw.inputTokens;
  const output = raw.outputTokens;
  const prompt = isRecord(input) ? count(input.total) : count(input);
  const completion = isRecord(output) ? count(output.total) : count(output);
  const cached = isRecord(input) ? count(input.cacheRead) : count(raw.cachedInputTokens);
  const reasoning = isRecord(output) ? count(output.reasoning) : count(raw.reasoningTokens);
  if (prompt !== undefined) usage.promptTokens = prompt;
  if (completion !== undefined) usage.completionTokens = completion;
  if (cached !== undefined) usage.cachedInputTokens = cached;
  if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** An APICallError (it has `statusCode`) becomes a ProviderHttpError; aborts stay aborts. */
function normalizeError(error: unknown, name: string, signal: AbortSignal | undefined): unknown {
  if (signal?.aborted) return abortError(signal.reason);
  if (isAbortError(error)) return error;
  if (isRecord(error) || error instanceof Error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number') {
      const message = (error as { message?: unknown }).message;
      const headers = (error as { responseHeaders?: unknown }).responseHeaders;
      const retryAfter = isRecord(headers) ? retryAfterMs(headers) : undefined;
      return new ProviderHttpError({
        provider: name,
        label: name,
        status,
        ...(typeof message === 'string' && message ? { apiMessage: redactSecrets(message, []) } : {}),
        ...(retryAfter !== undefined ? { retryAfterMs: retryAfter } : {}),
      });
    }
  }
  return error;
}

function retryAfterMs(headers: Record<string, unknown>): number | undefined {
  const ms = Number(headers['retry-after-ms']);
  if (Number.isFinite(ms) && ms >= 0 && headers['retry-after-ms'] !== undefined) return ms;
  const seconds = Number(headers['retry-after']);
  return Number.isFinite(seconds) && seconds >= 0 && headers['retry-after'] !== undefined ? seconds * 1000 : undefined;
}

function toCallOptions(request: GenerateOptions): AISDKCallOptions {
  const options: AISDKCallOptions = { prompt: toPrompt(request.system, request.messages) };
  if (request.tools && request.tools.length > 0) {
    options.tools = request.tools.map((tool) => ({ type: 'function', name: tool.name, description: tool.description, inputSchema: tool.parameters }));
  }
  if (request.responseFormat?.type === 'json') {
    options.responseFormat = request.responseFormat.schema ? { type: 'json', schema: request.responseFormat.schema } : { type: 'json' };
  }
  if (request.maxTokens !== undefined) options.maxOutputTokens = request.maxTokens;
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.signal) options.abortSignal = request.signal;
  return options;
}

/** The transcript as an `ai` SDK prompt (the same shape in V2 and V3). */
function toPrompt(system: string | undefined, messages: readonly Message[]): Record<string, unknown>[] {
  const prompt: Record<string, unknown>[] = [];
  if (system) prompt.push({ role: 'system', content: system });
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        prompt.push({ role: 'system', content: textOf(message) });
        break;
      case 'user':
        prompt.push({ role: 'user', content: userParts(message.content) });
        break;
      case 'assistant': {
        const text = textOf(message);
        const content: Record<string, unknown>[] = text ? [{ type: 'text', text }] : [];
        for (const call of message.toolCalls ?? []) {
          content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: parseArguments(call.arguments) });
        }
        if (content.length > 0) prompt.push({ role: 'assistant', content });
        break;
      }
      case 'tool': {
        const value = textOf(message);
        prompt.push({
          role: 'tool',
          content: [
            {
              type: 'tool-result',
              toolCallId: message.toolCallId ?? '',
              toolName: message.toolName ?? '',
              output: message.isError ? { type: 'error-text', value } : { type: 'text', value },
            },
          ],
        });
        break;
      }
      default:
        break;
    }
  }
  return prompt;
}

function userParts(content: string | readonly ContentPart[]): Record<string, unknown>[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) => {
    if (part.type === 'text') return { type: 'text', text: part.text };
    if (part.type === 'attachment') throw unresolvedAttachment(part);
    if (part.type === 'file') {
      const inline = parseDataUrl(part.data);
      return { type: 'file', mediaType: part.mimeType, data: inline ? inline.data : part.data, ...(part.filename ? { filename: part.filename } : {}) };
    }
    const inline = parseDataUrl(part.image);
    if (inline) return { type: 'file', mediaType: part.mimeType ?? inline.mimeType ?? sniffImageType(inline.data) ?? 'image/png', data: inline.data };
    if (/^https?:\/\//i.test(part.image)) return { type: 'file', mediaType: part.mimeType ?? 'image/*', data: new URL(part.image) };
    return { type: 'file', mediaType: part.mimeType ?? sniffImageType(part.image) ?? 'image/png', data: part.image };
  });
}

function parseArguments(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}
