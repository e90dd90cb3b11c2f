import { describe, expect, it, vi } from 'vitest';
import {
  AllProvidersFailedError,
  AnthropicProvider,
  OpenAIProvider,
  ProviderHttpError,
  ProviderResponseError,
  abortError,
  isRetryableError,
  withFallback,
  withRetry,
  type GenerateOptions,
  type LLMProvider,
  type StreamChunk,
} from '../src/index.js';
import { startFakeApi, type FakeApiServer } from './fake-api-server.js';
import { collect, failure, turn, user } from './helpers.js';
import { anthropicTextStream, openaiErrors, openaiTextStream } from './wire-fixtures.js';

const ask: GenerateOptions = { messages: [user('Hi')] };
const answer: StreamChunk[] = [
  { type: 'text-delta', text: 'ok' },
  { type: 'finish', finishReason: 'stop' },
];

const httpError = (status: number, retryAfterMs?: number) =>
  new ProviderHttpError({ provider: 'fake', label: 'Fake', status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) });

/** A provider that plays one script entry per call: an error to throw (after `before` chunks), or chunks. */
function scripted(steps: ({ fail: unknown; before?: StreamChunk[] } | StreamChunk[])[], name = 'fake', defaultModel?: string) {
  const calls: GenerateOptions[] = [];
  const provider: LLMProvider = {
    name,
    ...(defaultModel ? { defaultModel } : {}),
    async *stream(options) {
      calls.push(options);
      const step = steps[Math.min(calls.length - 1, steps.length - 1)]!;
      if (Array.isArray(step)) {
        yield* step;
        return;
      }
      yield* step.before ?? [];
      throw step.fail;
    },
  };
  return { provider, calls };
}

const quick = { minDelayMs: 1, maxDelayMs: 1, jitter: false } as const;

describe('withRetry', () => {
  it('retries a 429 and then streams the answer, keeping name and default model', async () => {
    const { provider, calls } = scripted([{ fail: httpError(429) }, answer], 'openai', 'gpt-4o-mini');
    const retries: number[] = [];
    const wrapped = withRetry(provider, { ...quick, onRetry: ({ attempt }) => retries.push(attempt) });
    expect(wrapped).toMatchObject({ name: 'openai', defaultModel: 'gpt-4o-mini' });
    expect(await collect(wrapped.stream(ask))).toEqual(answer);
    expect(calls).toHaveLength(2);
    expect(retries).toEqual([1]);
  });

  it('retries 5xx, network errors and cut streams up to `retries` times, then throws the last error', async () => {
    const cut = new ProviderResponseError({ provider: 'fake', message: 'cut', hint: '', retryable: true });
    const network = new TypeError('fetch failed');
    const { provider, calls } = scripted([{ fail: httpError(500) }, { fail: network }, { fail: cut }, { fail: httpError(503) }]);
    const error = await failure(collect(withRetry(provider, { ...quick, retries: 3 }).stream(ask)));
    expect(calls).toHaveLength(4);
    expect(error).toMatchObject({ status: 503 });
  });

  it.each([400, 401, 403, 404, 422])('never retries a %i', async (status) => {
    const { provider, calls } = scripted([{ fail: httpError(status) }, answer]);
    const error = await failure(collect(withRetry(provider, quick).stream(ask)));
    expect(error).toMatchObject({ status });
    expect(calls).toHaveLength(1);
  });

  it('never retries an abort', async () => {
    const { provider, calls } = scripted([{ fail: abortError() }, answer]);
    const error = await failure(collect(withRetry(provider, quick).stream(ask)));
    expect(error.name).toBe('AbortError');
    expect(calls).toHaveLength(1);
  });

  it('never retries a call that already streamed output', async () => {
    const { provider, calls } = scripted([{ before: [{ type: 'text-delta', text: 'Hal' }], fail: httpError(500) }, answer]);
    const seen: StreamChunk[] = [];
    const error = await failure((async () => { for await (const c of withRetry(provider, quick).stream(ask)) seen.push(c); })());
    expect(seen).toEqual([{ type: 'text-delta', text: 'Hal' }]);
    expect(error).toMatchObject({ status: 500 });
    expect(calls).toHaveLength(1);
  });

  it('stops waiting and rejects with an AbortError when the signal aborts during the backoff', async () => {
    const { provider, calls } = scripted([{ fail: httpError(503) }, answer]);
    const controller = new AbortController();
    const wrapped = withRetry(provider, { minDelayMs: 60_000, maxDelayMs: 60_000, onRetry: () => controller.abort() });
    const error = await failure(collect(wrapped.stream({ ...ask, signal: controller.signal })));
    expect(error.name).toBe('AbortError');
    expect(calls).toHaveLength(1);
  });

  it('doubles the delay from minDelayMs up to maxDelayMs', async () => {
    const { provider } = scripted([{ fail: httpError(500) }]);
    const delays: number[] = [];
    await failure(collect(withRetry(provider, { retries: 4, minDelayMs: 2, maxDelayMs: 5, jitter: false, onRetry: ({ delayMs }) => delays.push(delayMs) }).stream(ask)));
    expect(delays).toEqual([2, 4, 5, 5]);
  });

  it('shaves a random share of each delay off with jitter', async () => {
    const { provider } = scripted([{ fail: httpError(500) }]);
    const delays: number[] = [];
    const record = ({ delayMs }: { delayMs: number }) => delays.push(delayMs);
    await failure(collect(withRetry(provider, { retries: 1, minDelayMs: 8, maxDelayMs: 8, jitter: 0.5, random: () => 1, onRetry: record }).stream(ask)));
    await failure(collect(withRetry(provider, { retries: 1, minDelayMs: 8, maxDelayMs: 8, random: () => 0.5, onRetry: record }).stream(ask)));
    expect(delays).toEqual([4, 6]);
  });

  it('waits as long as Retry-After asks before the next call', async () => {
    vi.useFakeTimers();
    try {
      const { provider, calls } = scripted([{ fail: httpError(429, 2000) }, answer]);
      const done = collect(withRetry(provider, { minDelayMs: 10, jitter: false }).stream(ask));
      await vi.advanceTimersByTimeAsync(1999);
      expect(calls).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(await done).toEqual(answer);
      expect(calls).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('fails at once when Retry-After asks for longer than maxRetryAfterMs', async () => {
    const { provider, calls } = scripted([{ fail: httpError(429, 3_600_000) }, answer]);
    const error = await failure(collect(withRetry(provider, quick).stream(ask)));
    expect(error).toMatchObject({ status: 429, retryAfterMs: 3_600_000 });
    expect(calls).toHaveLength(1);
  });

  it('honours a custom shouldRetry', async () => {
    const { provider, calls } = scripted([{ fail: new Error('flaky') }, answer]);
    const wrapped = withRetry(provider, { ...quick, shouldRetry: (e) => (e as Error).message === 'flaky' });
    expect(await collect(wrapped.stream(ask))).toEqual(answer);
    expect(calls).toHaveLength(2);
  });

  it('rejects bad options', () => {
    const { provider } = scripted([answer]);
    expect(() => withRetry(provider, { retries: -1 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => withRetry(provider, { jitter: 2 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => withRetry(provider, { minDelayMs: 10, maxDelayMs: 5 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('retries a real 429 from the wire, using its retry-after-ms', async () => {
    const server = await startFakeApi([{ ...openaiErrors.rateLimited, headers: { 'retry-after-ms': '5' } }, { sse: openaiTextStream(['second time']) }]);
    try {
      const delays: number[] = [];
      const provider = withRetry(new OpenAIProvider({ apiKey: 'sk-retry-0000000000000000', baseURL: `${server.url}/v1`, env: {} }), {
        minDelayMs: 1,
        jitter: false,
        onRetry: ({ delayMs }) => delays.push(delayMs),
      });
      expect((await turn(provider, ask)).text).toBe('second time');
      expect(server.requests).toHaveLength(2);
      expect(delays).toEqual([5]);
    } finally {
      await server.close();
    }
  });
});

describe('isRetryableError', () => {
  it('judges errors from other clients by their status, and plain errors as final', () => {
    expect(isRetryableError(Object.assign(new Error('x'), { status: 429 }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('x'), { status: 502 }))).toBe(true);
    expect(isRetryableError(Object.assign(new Error('x'), { status: 400 }))).toBe(false);
    expect(isRetryableError(new TypeError('Failed to fetch'))).toBe(true);
    expect(isRetryableError(new Error('bug'))).toBe(false);
    expect(isRetryableError(abortError())).toBe(false);
    expect(isRetryableError('string')).toBe(false);
  });
});

describe('withFallback', () => {
  it('moves to the next provider on failure, which uses its own default model', async () => {
    const first = scripted([{ fail: httpError(500) }], 'openai', 'gpt-4o-mini');
    const second = scripted([answer], 'anthropic', 'claude-haiku-4-5');
    const moves: string[] = [];
    const provider = withFallback([first.provider, second.provider], { onFallback: ({ from, to }) => moves.push(`${from.name}->${to.name}`) });
    expect(provider).toMatchObject({ name: 'openai', defaultModel: 'gpt-4o-mini' });
    expect(await collect(provider.stream({ ...ask, model: 'gpt-4o-mini' }))).toEqual(answer);
    expect(first.calls[0]!.model).toBe('gpt-4o-mini');
    expect(second.calls[0]!.model).toBe('claude-haiku-4-5');
    expect(moves).toEqual(['openai->anthropic']);
  });

  it('does not move on after output was streamed', async () => {
    const first = scripted([{ before: [{ type: 'text-delta', text: 'Par' }], fail: httpError(500) }]);
    const second = scripted([answer]);
    const error = await failure(collect(withFallback([first.provider, second.provider]).stream(ask)));
    expect(error).toMatchObject({ status: 500 });
    expect(second.calls).toHaveLength(0);
  });

  it('does not move on after an abort', async () => {
    const controller = new AbortController();
    controller.abort();
    const first = scripted([{ fail: abortError() }]);
    const second = scripted([answer]);
    const error = await failure(collect(withFallback([first.provider, second.provider]).stream({ ...ask, signal: controller.signal })));
    expect(error.name).toBe('AbortError');
    expect(second.calls).toHaveLength(0);
  });

  it('reports every failure when all providers fail', async () => {
    const first = scripted([{ fail: httpError(401) }], 'openai');
    const second = scripted([{ fail: httpError(503) }], 'anthropic');
    const error = await failure(collect(withFallback([first.provider, second.provider]).stream(ask)));
    expect(error).toBeInstanceOf(AllProvidersFailedError);
    expect(error).toMatchObject({ code: 'LOUSHO_ALL_PROVIDERS_FAILED', retryable: true });
    expect(error.errors.map((e: ProviderHttpError) => e.status)).toEqual([401, 503]);
    expect(error.message).toMatch(/All 2 providers failed\. openai: Fake request failed with HTTP 401.* \| anthropic: Fake request failed with HTTP 503/);
  });

  it('throws the error as is when shouldFallback says no', async () => {
    const first = scripted([{ fail: httpError(400) }]);
    const second = scripted([answer]);
    const error = await failure(collect(withFallback([first.provider, second.provider], { shouldFallback: isRetryableError }).stream(ask)));
    expect(error).toMatchObject({ status: 400 });
    expect(second.calls).toHaveLength(0);
  });

  it('needs at least one provider', () => {
    expect(() => withFallback([])).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('falls back from a real OpenAI 401 to a real Anthropic answer', async () => {
    let openaiServer: FakeApiServer | undefined;
    let anthropicServer: FakeApiServer | undefined;
    try {
      openaiServer = await startFakeApi([openaiErrors.unauthorized('sk-bad-000000000000000000')]);
      anthropicServer = await startFakeApi([{ sse: anthropicTextStream(['Claude here']) }]);
      const provider = withFallback([
        new OpenAIProvider({ apiKey: 'sk-bad-000000000000000000', baseURL: `${openaiServer.url}/v1`, env: {} }),
        new AnthropicProvider({ apiKey: 'sk-ant-good-00000000000', baseURL: anthropicServer.url, env: {} }),
      ]);
      expect((await turn(provider, { ...ask, model: 'gpt-4o-mini' })).text).toBe('Claude here');
      expect(anthropicServer.requests[0]!.body.model).toBe('claude-haiku-4-5');
    } finally {
      await openaiServer?.close();
      await anthropicServer?.close();
    }
  });
});
