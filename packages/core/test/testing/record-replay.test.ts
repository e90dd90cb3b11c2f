import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, OpenAIProvider, type AgentStreamEvent } from '../../src/index.js';
import { mockModel, recordReplay, type Cassette } from '@lousho/testing';
import { startFakeApi } from '../../../providers/test/fake-api-server.js';
import { openaiTextStream, openaiToolCallStream } from '../../../providers/test/wire-fixtures.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const cassettePath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lousho-cassette-'));
  dirs.push(dir);
  return join(dir, 'cassettes', 'run.json');
};

const weather = defineTool({ name: 'get_weather', displayName: 'Weather', description: 'Weather', input: z.object({ city: z.string() }), execute: async ({ city }) => ({ city, tempC: city === 'Paris' ? 21 : 9 }) });
const agentOn = (provider: Parameters<typeof createAgent>[0]['provider']) => createAgent({ provider, instructions: 'You are a travel assistant.', tools: [weather] });

/** Everything a run streamed that a user sees, without ids that differ per run. */
async function transcriptOf(provider: Parameters<typeof createAgent>[0]['provider'], input: string) {
  const run = agentOn(provider).stream(input);
  const events: string[] = [];
  for await (const e of run as AsyncIterable<AgentStreamEvent>) if (e.type === 'text.delta' || e.type === 'tool.call' || e.type === 'tool.done') events.push(JSON.stringify([e.type, 'delta' in e ? e.delta : 'args' in e ? e.args : 'result' in e ? e.result : null]));
  return { events, result: await run.result };
}

describe('recordReplay', () => {
  it('records a multi-step tool run through a real wire provider, then replays it chunk for chunk without the network', async () => {
    const KEY = 'sk-test-secret-0123456789abcdef';
    const api = await startFakeApi([
      { sse: openaiToolCallStream('call_1', 'get_weather', ['{"ci', 'ty":"Paris"}']) },
      { sse: openaiToolCallStream('call_2', 'get_weather', ['{"city":"Oslo"}']) },
      { sse: openaiTextStream(['Paris is ', '21 °C, ', 'Oslo 9 °C.']) },
    ]);
    const path = cassettePath();
    const real = new OpenAIProvider({ apiKey: KEY, baseURL: `${api.url}/v1`, env: {} });
    const recorder = recordReplay({ provider: real, cassette: path, mode: 'auto' });
    const live = await transcriptOf(recorder, 'Paris vs Oslo?');
    await recorder.flushed();
    await api.close();
    expect(await recorder.mode()).toBe('record');
    expect(live.result.text).toBe('Paris is 21 °C, Oslo 9 °C.');

    const text = readFileSync(path, 'utf8');
    const cassette = JSON.parse(text) as Cassette;
    expect(cassette.interactions).toHaveLength(3);
    expect(cassette.provider.name).toBe('openai');
    expect(text).not.toContain(KEY);

    // Replay: the server is gone; the same run streams exactly the same.
    const player = recordReplay({ cassette: path });
    const replayed = await transcriptOf(player, 'Paris vs Oslo?');
    expect(await player.mode()).toBe('replay');
    expect(replayed.events).toEqual(live.events);
    expect(replayed.result.text).toBe(live.result.text);
    expect(replayed.result.usage.inputTokens).toBe(live.result.usage.inputTokens);
  });

  it('fails a request that differs from the recording with a readable diff', async () => {
    const path = cassettePath();
    const recorder = recordReplay({ provider: mockModel(['Hello!']), cassette: path, mode: 'record' });
    await agentOn(recorder).send('Hi there');
    await recorder.flushed();
    const error = await agentOn(recordReplay({ cassette: path, mode: 'replay' }))
      .send('Hi where')
      .catch((e: unknown) => e);
    // The agent turns the provider failure into its own error; the cassette's message is inside.
    const message = String((error as { message?: string })?.message ?? error);
    expect(message).toMatch(/model call 1 differs from the recorded one/);
    expect(message).toContain('-       "content": "Hi there",\n+       "content": "Hi where",');
    await expect(agentOn(recordReplay({ cassette: path, mode: 'replay' })).send('Hi there')).resolves.toMatchObject({ text: 'Hello!' });
  });

  it('says when the code makes more calls than were recorded, and when there is nothing to replay', async () => {
    const store: { cassette?: Cassette } = {};
    const location = { load: () => store.cassette, save: (c: Cassette) => void (store.cassette = c) };
    const recorder = recordReplay({ provider: mockModel(['one']), cassette: location });
    await agentOn(recorder).send('a');
    await recorder.flushed();
    const player = recordReplay({ cassette: location });
    await agentOn(player).send('a');
    const stream = player.stream({ messages: [{ role: 'user', content: 'a' }] });
    await expect(stream.next()).rejects.toMatchObject({ code: 'LOUSHO_CASSETTE_EXHAUSTED' });
    const none = recordReplay({ cassette: cassettePath(), mode: 'replay' });
    await expect(none.stream({ messages: [] }).next()).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining('no cassette') });
    expect(() => recordReplay({ cassette: 'x.json', mode: 'record' })).toThrow(/needs the real provider/);
  });

  it('redacts given text everywhere, keeps failures, and lets concurrent calls match in any order', async () => {
    const path = cassettePath();
    const recorder = recordReplay({ provider: mockModel(['about alice@example.com', 'first reply', new Error('upstream 503 for alice@example.com')]), cassette: path, redact: ['alice@example.com'] });
    const collect = async (provider: typeof recorder, content: string) => {
      const out: string[] = [];
      for await (const chunk of provider.stream({ messages: [{ role: 'user', content }] })) if (chunk.type === 'text-delta') out.push(chunk.text);
      return out.join('');
    };
    expect(await collect(recorder, 'mail bob')).toBe('about alice@example.com');
    expect(await collect(recorder, 'first')).toBe('first reply');
    await expect(collect(recorder, 'second')).rejects.toThrow('upstream 503');
    await recorder.flushed();
    const text = readFileSync(path, 'utf8');
    expect(text).not.toContain('alice@example.com');
    expect(text).toContain('[redacted]');
    // A secret split over two streamed pieces is still caught.
    const splitPath = cassettePath();
    const split = recordReplay({ provider: mockModel(['key sk-live-12345 end'], { chunkSize: 7 }), cassette: splitPath, redact: [/sk-live-\d+/] });
    expect(await collect(split, 'k')).toBe('key sk-live-12345 end');
    await split.flushed();
    expect(readFileSync(splitPath, 'utf8')).not.toMatch(/sk-live|12345/);
    expect(await collect(recordReplay({ cassette: splitPath }), 'k')).toBe('key [redacted] end');

    // Recorded as first, second; asked in the other order: each finds its own recording.
    const player = recordReplay({ cassette: path });
    await expect(collect(player, 'second')).rejects.toThrow('upstream 503 for [redacted]');
    expect(await collect(player, 'first')).toBe('first reply');
    expect(await collect(player, 'mail bob')).toBe('about [redacted]');
  });
});
