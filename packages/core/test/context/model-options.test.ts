import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type GenerateOptions, type LLMProvider, type StreamChunk } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

/** A provider whose models fail as told (`failures[model]` times, with an HTTP-like status), then answer with their name. */
function flakyProvider(failures: Record<string, { times: number; status: number }>) {
  const asked: string[] = [];
  const left = Object.fromEntries(Object.entries(failures).map(([model, f]) => [model, f.times]));
  const provider: LLMProvider = {
    name: 'flaky',
    defaultModel: 'primary',
    async *stream(request: GenerateOptions): AsyncGenerator<StreamChunk> {
      const model = request.model ?? 'primary';
      asked.push(model);
      if ((left[model] ?? 0) > 0) {
        left[model]!--;
        throw Object.assign(new Error(`${model} is down`), { status: failures[model]!.status });
      }
      yield { type: 'text-delta', text: `answer from ${model}` };
      yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 2 } };
    },
  };
  return { provider, asked };
}

describe('fallbackModels', () => {
  it('tries the model ids in order when the provider fails, and counts usage under the model that answered', async () => {
    const { provider, asked } = flakyProvider({ primary: { times: 5, status: 400 }, second: { times: 5, status: 400 } });
    const result = await createAgent({ provider, model: 'primary', fallbackModels: ['second', 'third'] }).send('hi');
    expect(result.text).toBe('answer from third');
    expect(asked).toEqual(['primary', 'second', 'third']);
    expect(Object.keys(result.usage.byModel)).toEqual(['third']);
  });

  it('every model failing fails the run with each failure named', async () => {
    const { provider } = flakyProvider({ primary: { times: 5, status: 400 }, second: { times: 5, status: 400 } });
    await expect(createAgent({ provider, model: 'primary', fallbackModels: ['second'] }).send('hi')).rejects.toMatchObject({
      code: 'LOUSHO_ALL_PROVIDERS_FAILED',
      message: expect.stringMatching(/primary is down.*second is down/),
    });
  });

  it('as a function of the run', async () => {
    const { provider, asked } = flakyProvider({ primary: { times: 5, status: 400 } });
    const agent = createAgent({ provider, model: 'primary', fallbackModels: ({ metadata }) => (metadata?.tier === 'pro' ? ['pro-backup'] : []) });
    await expect(agent.send('hi')).rejects.toThrow(/primary is down/);
    expect((await agent.send('hi', { metadata: { tier: 'pro' } })).text).toBe('answer from pro-backup');
    expect(asked.at(-1)).toBe('pro-backup');
  });

  it('refuses a value that is not a list of ids', async () => {
    await expect(createAgent({ provider: mockModel(['x']), fallbackModels: 'gpt-4o' as never }).send('hi')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining('fallbackModels must be a list') });
  });
});

describe('retry', () => {
  it('retries a transient failure (withRetry options) before answering', async () => {
    const { provider, asked } = flakyProvider({ primary: { times: 2, status: 503 } });
    const retries: number[] = [];
    const result = await createAgent({ provider, retry: { retries: 2, minDelayMs: 1, onRetry: ({ attempt }) => retries.push(attempt) } }).send('hi');
    expect(result.text).toBe('answer from primary');
    expect(asked).toEqual(['primary', 'primary', 'primary']);
    expect(retries).toEqual([1, 2]);
  });

  it('retries each model before falling back to the next one; a 4xx is not retried', async () => {
    const { provider, asked } = flakyProvider({ primary: { times: 1, status: 400 }, second: { times: 1, status: 503 } });
    const result = await createAgent({ provider, fallbackModels: ['second'], retry: { minDelayMs: 1 } }).send('hi');
    expect(result.text).toBe('answer from second');
    expect(asked).toEqual(['primary', 'second', 'second']);
  });

  it('checks its options, per run too', async () => {
    const provider = mockModel(['x', 'y']);
    await expect(createAgent({ provider, retry: { retires: 2 } as never }).send('hi')).rejects.toMatchObject({ code: 'LOUSHO_UNKNOWN_OPTION', message: expect.stringContaining('did you mean `retries`?') });
    await expect(createAgent({ provider, retry: () => 3 as never }).send('hi')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG' });
    expect((await createAgent({ provider, retry: () => true }).send('hi')).text).toBe('x');
  });
});

describe('projectInstructions', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'lousho-project-'));
    await writeFile(join(dir, 'AGENTS.md'), '# Conventions\nUse pnpm, never npm.\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('appends a string or a file (e.g. AGENTS.md) to the system prompt', async () => {
    const provider = mockModel(['a', 'b']);
    await createAgent({ provider, instructions: 'You are a coding agent.', projectInstructions: 'Tabs, not spaces.' }).send('hi');
    expect(provider.calls[0]!.system).toBe('You are a coding agent.\n\n## Project instructions\nTabs, not spaces.');
    await createAgent({ provider, instructions: 'You are a coding agent.', projectInstructions: { file: join(dir, 'AGENTS.md') } }).send('hi');
    expect(provider.calls[1]!.system).toBe('You are a coding agent.\n\n## Project instructions\n# Conventions\nUse pnpm, never npm.');
  });

  it('as a function of the run; a missing file is a clear error', async () => {
    const provider = mockModel(['a']);
    await createAgent({ provider, projectInstructions: ({ metadata }) => `Repository: ${String(metadata?.repo)}` }).send('hi', { metadata: { repo: 'lousho' } });
    expect(provider.calls[0]!.system).toBe('## Project instructions\nRepository: lousho');
    await expect(createAgent({ provider: mockModel(['a']), projectInstructions: { file: join(dir, 'MISSING.md') } }).send('hi')).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_CONFIG',
      message: expect.stringContaining('cannot read the file'),
    });
    await expect(createAgent({ provider: mockModel(['a']), projectInstructions: { path: 'AGENTS.md' } as never }).send('hi')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG' });
  });
});
