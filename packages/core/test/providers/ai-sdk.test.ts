/**
 * fromAISDKModel() against hand-written models that follow the `ai` SDK's LanguageModelV2 and V3
 * specifications (stream parts, usage and finish-reason shapes as published in @ai-sdk/provider).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { fromAISDKModel, ProviderHttpError, withRetry, type AISDKCallOptions, type AISDKLanguageModel, type AISDKStreamPart } from '@lousho/providers';
import { collect, failure, turn, user } from '../../../providers/test/helpers.js';

function fakeModel(version: 'v2' | 'v3', turns: (AISDKStreamPart[] | Error)[]) {
  const calls: AISDKCallOptions[] = [];
  const model: AISDKLanguageModel = {
    specificationVersion: version,
    provider: 'acme.chat',
    modelId: 'acme-large',
    async doStream(options) {
      calls.push(options);
      const parts = turns[Math.min(calls.length - 1, turns.length - 1)]!;
      if (parts instanceof Error) throw parts;
      return {
        stream: new ReadableStream<AISDKStreamPart>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        }),
      };
    },
  };
  return { model, calls };
}

const usageFor = (version: 'v2' | 'v3', input: number, output: number, cached: number, reasoning: number) =>
  version === 'v2'
    ? { inputTokens: input, outputTokens: output, totalTokens: input + output, cachedInputTokens: cached, reasoningTokens: reasoning }
    : { inputTokens: { total: input, noCache: input - cached, cacheRead: cached, cacheWrite: undefined }, outputTokens: { total: output, text: output - reasoning, reasoning } };

const finishFor = (version: 'v2' | 'v3', reason: string) => (version === 'v2' ? reason : { unified: reason, raw: reason });

function toolTurn(version: 'v2' | 'v3'): AISDKStreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: 'resp_1', modelId: 'acme-large' },
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', delta: 'Need weather.' },
    { type: 'reasoning-end', id: 'r1' },
    { type: 'tool-input-start', id: 'call_a', toolName: 'get_weather' },
    { type: 'tool-input-delta', id: 'call_a', delta: '{"city":' },
    { type: 'tool-input-delta', id: 'call_a', delta: '"Paris"}' },
    { type: 'tool-input-end', id: 'call_a' },
    { type: 'tool-call', toolCallId: 'call_a', toolName: 'get_weather', input: '{"city":"Paris"}' },
    { type: 'tool-call', toolCallId: 'ws_1', toolName: 'web_search', input: '{}', providerExecuted: true },
    { type: 'finish', finishReason: finishFor(version, 'tool-calls'), usage: usageFor(version, 50, 20, 10, 4) },
  ];
}

function textTurn(version: 'v2' | 'v3', text: string): AISDKStreamPart[] {
  return [
    { type: 'stream-start', warnings: [] },
    { type: 'text-start', id: 't1' },
    ...Array.from(text.split(/(?<= )/), (delta) => ({ type: 'text-delta', id: 't1', delta })),
    { type: 'text-end', id: 't1' },
    { type: 'finish', finishReason: finishFor(version, 'stop'), usage: usageFor(version, 80, 6, 0, 0) },
  ];
}

describe.each(['v2', 'v3'] as const)('fromAISDKModel with a LanguageModel %s', (version) => {
  it('maps reasoning, streamed tool calls, the finish reason and usage; skips provider-run tools', async () => {
    const { model } = fakeModel(version, [toolTurn(version)]);
    const provider = fromAISDKModel(model);
    expect(provider).toMatchObject({ name: 'acme', defaultModel: 'acme-large' });
    const chunks = await collect(provider.stream({ messages: [user('Weather in Paris?')] }));
    expect(chunks).toEqual([
      { type: 'reasoning-delta', text: 'Need weather.' },
      { type: 'tool-call-start', index: 0, id: 'call_a', name: 'get_weather' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
      { type: 'tool-call', index: 0, id: 'call_a', name: 'get_weather', arguments: '{"city":"Paris"}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 50, completionTokens: 20, cachedInputTokens: 10, reasoningTokens: 4 } },
    ]);
  });

  it('runs an agent with a tool call and sends the transcript in the SDK prompt format', async () => {
    const { model, calls } = fakeModel(version, [toolTurn(version), textTurn(version, 'It is sunny in Paris.')]);
    const tool = defineTool({ name: 'get_weather', description: 'Weather', input: z.object({ city: z.string() }), execute: async ({ city }) => `sunny in ${city}` });
    const result = await createAgent({ provider: fromAISDKModel(model), tools: [tool], instructions: 'Be brief.' }).send('Weather in Paris?');
    expect(result.text).toBe('It is sunny in Paris.');
    expect(result.usage.estimated).toBe(false);
    const second = calls[1]!;
    expect(second.prompt).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_a', toolName: 'get_weather', input: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_a', toolName: 'get_weather', output: { type: 'text', value: 'sunny in Paris' } }] },
    ]);
    expect(second.tools).toEqual([{ type: 'function', name: 'get_weather', description: 'Weather', inputSchema: expect.objectContaining({ type: 'object' }) }]);
  });
});

describe('fromAISDKModel: requests and errors', () => {
  it('passes images as file parts, the JSON hint, limits and the abort signal', async () => {
    const { model, calls } = fakeModel('v2', [textTurn('v2', 'ok')]);
    const controller = new AbortController();
    await turn(fromAISDKModel(model, { name: 'mine' }), {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', image: 'https://example.com/a.png' },
            { type: 'image', image: 'data:image/jpeg;base64,/9j/4AAQ' },
          ],
        },
      ],
      responseFormat: { type: 'json', schema: { type: 'object' } },
      maxTokens: 64,
      temperature: 0.5,
      signal: controller.signal,
    });
    const call = calls[0]!;
    expect(call.prompt[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'file', mediaType: 'image/*', data: new URL('https://example.com/a.png') },
        { type: 'file', mediaType: 'image/jpeg', data: '/9j/4AAQ' },
      ],
    });
    expect(call).toMatchObject({ responseFormat: { type: 'json', schema: { type: 'object' } }, maxOutputTokens: 64, temperature: 0.5, abortSignal: controller.signal });
  });

  it('turns an APICallError into a ProviderHttpError that withRetry retries', async () => {
    const apiCallError = Object.assign(new Error('Rate limit exceeded'), { name: 'AI_APICallError', statusCode: 429, isRetryable: true, responseHeaders: { 'retry-after-ms': '1' } });
    const { model, calls } = fakeModel('v3', [apiCallError, apiCallError, textTurn('v3', 'ok')]);
    const error = await failure(turn(fromAISDKModel(model), { messages: [user('x')] }));
    expect(error).toBeInstanceOf(ProviderHttpError);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 1 });
    expect(error.message).toContain('acme request failed with HTTP 429');
    const retried = await turn(withRetry(fromAISDKModel(model), { minDelayMs: 1, jitter: false }), { messages: [user('x')] });
    expect(retried.text).toBe('ok');
    expect(calls).toHaveLength(3);
  });

  it('rethrows an error part from the stream', async () => {
    const { model } = fakeModel('v2', [[{ type: 'text-delta', id: 't', delta: 'Hi' }, { type: 'error', error: new Error('upstream broke') }]]);
    const error = await failure(turn(fromAISDKModel(model), { messages: [user('x')] }));
    expect(error.message).toBe('upstream broke');
  });

  it('stops promptly with an AbortError and cancels the model stream', async () => {
    let cancelled = false;
    const model: AISDKLanguageModel = {
      specificationVersion: 'v3',
      provider: 'acme.chat',
      modelId: 'acme-large',
      async doStream() {
        return {
          stream: new ReadableStream<AISDKStreamPart>({
            start(controller) {
              controller.enqueue({ type: 'text-delta', id: 't', delta: 'Hel' });
            },
            cancel() {
              cancelled = true;
            },
          }),
        };
      },
    };
    const controller = new AbortController();
    const error = await failure(
      (async () => {
        for await (const chunk of fromAISDKModel(model).stream({ messages: [user('x')], signal: controller.signal })) {
          expect(chunk).toEqual({ type: 'text-delta', text: 'Hel' });
          controller.abort();
        }
      })(),
    );
    expect(error.name).toBe('AbortError');
    expect(cancelled).toBe(true);
  });
});
