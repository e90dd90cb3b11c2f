import { isAbortError, type Message, type StreamChunk } from '@lousho/build-ai-agent';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createDemoModel,
  decideDemoReply,
  DEMO_MODEL_FAILURE_MESSAGE,
  DEMO_MODEL_ID,
  demoWeatherFor,
} from '../src/index.js';
import { ALL_TOOLS, chunksOf, turn, user } from './helpers.js';

const argsOf = (call: { arguments: string }) => JSON.parse(call.arguments) as Record<string, unknown>;

describe('the demo model picks tools from the user\'s words', () => {
  it('calls get_weather for a known city, and announces it before the call', async () => {
    const result = await turn([user("What's the weather like in Tokyo today?")]);
    expect(result.finishReason).toBe('tool_calls');
    expect(result.toolCalls.map((c) => [c.name, argsOf(c)])).toEqual([['get_weather', { city: 'Tokyo' }]]);
    expect(result.text).toContain('Tokyo');
  });

  it('recognises cities regardless of case and accents, takes the word after "in" otherwise, else Paris', async () => {
    const city = async (text: string) => argsOf((await turn([user(text)])).toolCalls[0]!).city;
    expect(await city('temperature in sao paulo?')).toBe('São Paulo');
    expect(await city('Forecast for NEW YORK')).toBe('New York');
    expect(await city('How is the weather in gotham right now')).toBe('Gotham');
    expect(await city('weather in Porto Alegre please')).toBe('Porto Alegre');
    expect(await city('Is the weather nice?')).toBe('Paris');
    expect(await city('What is the weather in the morning?')).toBe('Paris');
  });

  it('makes one call per city in a single turn, in the order the message names them', async () => {
    const result = await turn([user('weather in Paris and Tokyo, and also in Oslo')]);
    expect(result.toolCalls.map((c) => argsOf(c).city)).toEqual(['Paris', 'Tokyo', 'Oslo']);
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(3);
    expect(result.text).toBe("Sure! I'll check the weather in Paris, Tokyo and Oslo.");
  });

  it('calls research_topic with the topic after the keyword', async () => {
    const topic = async (text: string) => {
      const calls = (await turn([user(text)])).toolCalls;
      expect(calls.map((c) => c.name)).toEqual(['research_topic']);
      return argsOf(calls[0]!).topic;
    };
    expect(await topic('Research the history of the bicycle')).toBe('the history of the bicycle');
    expect(await topic('Can you analyze the coffee market?')).toBe('the coffee market');
    expect(await topic('Write me a report on urban beekeeping.')).toBe('urban beekeeping');
    expect(await topic('research')).toBe('renewable energy');
  });

  it('does not read "weather report" as a research request', async () => {
    const result = await turn([user('Give me the weather report for Oslo')]);
    expect(result.toolCalls.map((c) => [c.name, argsOf(c)])).toEqual([['get_weather', { city: 'Oslo' }]]);
  });

  it('calls send_email with the address, subject and quoted body from the message, or defaults', async () => {
    const full = await turn([user('Send an email to bob@example.com about the launch saying "We ship on Friday."')]);
    expect(full.toolCalls.map((c) => [c.name, argsOf(c)])).toEqual([
      ['send_email', { to: 'bob@example.com', subject: 'the launch', body: 'We ship on Friday.' }],
    ]);
    expect(full.text).toContain('approval');
    const bare = await turn([user('mail the team please')]);
    expect(argsOf(bare.toolCalls[0]!)).toMatchObject({ to: 'team@example.com', subject: 'Hello from the Lousho demo' });
    expect(String(argsOf(bare.toolCalls[0]!).body).length).toBeGreaterThan(0);
  });

  it('calls ask_question with a question and options that fit the request', async () => {
    const trip = await turn([user('Help me plan a trip')]);
    expect(trip.toolCalls.map((c) => [c.name, argsOf(c)])).toEqual([
      ['ask_question', { question: 'Where would you like to go?', options: ['Lisbon', 'Tokyo', 'New York'] }],
    ]);
    const decide = await turn([user('help me decide what to buy')]);
    expect(argsOf(decide.toolCalls[0]!).question).toBe('What matters most to you in this decision?');
    const general = await turn([user('Ask me a question')]);
    expect(argsOf(general.toolCalls[0]!)).toMatchObject({ question: expect.any(String), options: expect.any(Array) });
  });

  it('makes the calls of several intents in one turn, in the order they were asked for', async () => {
    const result = await turn([user('Research solar power and send an email to sam@example.com about it, then tell me the weather in Rome')]);
    expect(result.toolCalls.map((c) => c.name)).toEqual(['research_topic', 'send_email', 'get_weather']);
    expect(argsOf(result.toolCalls[0]!).topic).toBe('solar power');
    expect(argsOf(result.toolCalls[1]!)).toMatchObject({ to: 'sam@example.com', subject: 'Research: solar power' });
    expect(argsOf(result.toolCalls[2]!).city).toBe('Rome');
  });

  it('only calls tools the request offers, and says so when it lacks the one asked for', async () => {
    const none = await turn([user('weather in Paris')], null);
    expect(none.toolCalls).toEqual([]);
    expect(none.text).toContain('does not give me');
    const onlyWeather = await turn([user('weather in Paris and email bob@example.com')], ALL_TOOLS.filter((t) => t.name === 'get_weather'));
    expect(onlyWeather.toolCalls.map((c) => c.name)).toEqual(['get_weather']);
  });

  it('otherwise replies plainly that it is the offline demo model and lists what it can do', async () => {
    const result = await turn([user('Hello there')]);
    expect(result.toolCalls).toEqual([]);
    expect(result.finishReason).toBe('stop');
    expect(result.text).toMatch(/^Hello! /);
    expect(result.text).toContain('offline demo model');
    for (const example of ['weather', 'Research', 'email', 'plan a trip', 'echo', 'simulate error']) expect(result.text).toContain(example);
  });
});

describe('the demo model answers from tool results', () => {
  const withResults = (calls: { name: string; args: unknown; result: string; isError?: boolean }[]): Message[] => [
    user('...'),
    { role: 'assistant', content: '', toolCalls: calls.map((c, i) => ({ id: `c${i}`, name: c.name, arguments: JSON.stringify(c.args) })) },
    ...calls.map((c, i): Message => ({ role: 'tool', toolCallId: `c${i}`, toolName: c.name, content: c.result, ...(c.isError ? { isError: true } : {}) })),
  ];

  it('states the weather from each result', async () => {
    const paris = { city: 'Paris', temperatureC: 18, conditions: 'cloudy', humidityPercent: 60, windKph: 12 };
    const tokyo = demoWeatherFor('Tokyo');
    const result = await turn(
      withResults([
        { name: 'get_weather', args: { city: 'Paris' }, result: JSON.stringify(paris) },
        { name: 'get_weather', args: { city: 'Tokyo' }, result: JSON.stringify(tokyo) },
      ]),
    );
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toBe(
      `It's 18 °C and cloudy in Paris (humidity 60%, wind 12 km/h).\nIt's ${tokyo.temperatureC} °C and ${tokyo.conditions} in Tokyo (humidity ${tokyo.humidityPercent}%, wind ${tokyo.windKph} km/h).`,
    );
  });

  it('says it stopped when a call was cancelled, and reports other failures with their message', async () => {
    const cancelled = JSON.stringify({ error: 'ToolCancelledError', toolName: 'research_topic', kind: 'cancelled', message: 'stopped' });
    const failed = JSON.stringify({ error: 'ToolArgumentsValidationError', toolName: 'send_email', kind: 'validation', message: 'to must be an email address' });
    const result = await turn(
      withResults([
        { name: 'research_topic', args: { topic: 'bees' }, result: cancelled, isError: true },
        { name: 'send_email', args: { to: 'nope' }, result: failed, isError: true },
      ]),
    );
    expect(result.text).toContain('I stopped before I could research bees');
    expect(result.text).toContain('it failed: to must be an email address');
  });
});

describe('the demo model echoes text verbatim', () => {
  it('repeats exactly what follows "echo", markup and whitespace included', async () => {
    const text = '<img src=x onerror=alert(1)>  and <script>alert("hi")</script>\n  second line ';
    expect((await turn([user(`echo ${text}`)])).text).toBe(text);
  });

  it('quotes a message containing HTML back verbatim', async () => {
    const html = 'Look: <img src=x onerror=alert(1)>';
    const result = await turn([user(html)]);
    expect(result.toolCalls).toEqual([]);
    expect(result.text).toContain(html);
  });

  it('echo returns any text unchanged (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((s) => !/^[:\s]/.test(s) && !/simulate/i.test(s)),
        (text) => decideDemoReply({ messages: [user(`echo ${text}`)], tools: ALL_TOOLS }).text === text,
      ),
    );
  });
});

describe('the demo model streams like a real provider', () => {
  it('streams the reply in several chunks that join back to the full text, then one finish chunk with usage', async () => {
    const chunks = await chunksOf(createDemoModel({ charDelayMs: 0 }).stream({ messages: [user('hi')], tools: ALL_TOOLS }));
    const deltas = chunks.filter((c) => c.type === 'text-delta');
    expect(deltas.length).toBeGreaterThan(10);
    const text = deltas.map((c) => c.text).join('');
    expect(text).toBe(decideDemoReply({ messages: [user('hi')], tools: ALL_TOOLS }).text);
    expect(chunks.filter((c) => c.type === 'finish')).toHaveLength(1);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop', usage: { promptTokens: expect.any(Number), completionTokens: expect.any(Number) } });
  });

  it('groups words with wordsPerChunk', async () => {
    const count = async (wordsPerChunk: number) =>
      (await chunksOf(createDemoModel({ charDelayMs: 0, wordsPerChunk }).stream({ messages: [user('hi')] }))).filter((c) => c.type === 'text-delta').length;
    const one = await count(1);
    const three = await count(3);
    expect(three).toBe(Math.ceil(one / 3));
  });

  it('streams tool call arguments in pieces after a tool-call-start', async () => {
    const chunks = await chunksOf(createDemoModel({ charDelayMs: 0 }).stream({ messages: [user('weather in Rio de Janeiro')], tools: ALL_TOOLS }));
    const start = chunks.findIndex((c) => c.type === 'tool-call-start');
    expect(chunks[start]).toMatchObject({ type: 'tool-call-start', index: 0, name: 'get_weather' });
    const pieces = chunks.filter((c) => c.type === 'tool-call-delta').map((c) => c.argumentsDelta);
    expect(pieces.length).toBeGreaterThan(1);
    expect(JSON.parse(pieces.join(''))).toEqual({ city: 'Rio de Janeiro' });
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
  });

  it('reports more prompt tokens for a longer conversation, and completion tokens from the reply', async () => {
    const usageOf = async (messages: Message[]) => (await turn(messages)).usage!;
    const short = await usageOf([user('echo hi')]);
    const long = await usageOf([user('x'.repeat(400)), { role: 'assistant', content: 'y'.repeat(400) }, user('echo hi')]);
    expect(long.promptTokens!).toBeGreaterThan(short.promptTokens! + 150);
    expect((await usageOf([user(`echo ${'z'.repeat(400)}`)])).completionTokens).toBeGreaterThanOrEqual(100);
  });

  it('stops with an AbortError as soon as the signal aborts, mid-stream', async () => {
    const controller = new AbortController();
    const stream = createDemoModel({ charDelayMs: 20 }).stream({ messages: [user('hello')], signal: controller.signal })[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toMatchObject({ type: 'text-delta' });
    const next = stream.next();
    controller.abort();
    const error = await next.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isAbortError(error)).toBe(true);
  });

  it('rejects at once when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(chunksOf(createDemoModel({ charDelayMs: 0 }).stream({ messages: [user('hi')], signal: controller.signal }))).rejects.toSatisfy(isAbortError);
  });

  it('fails on purpose when asked to "simulate error"', async () => {
    await expect(turn([user('Please simulate error now')])).rejects.toMatchObject({
      message: DEMO_MODEL_FAILURE_MESSAGE,
      code: 'LOUSHO_PROVIDER_ERROR',
    });
    await expect(turn([user('Please simulate error now')])).rejects.toBeInstanceOf(Error);
  });

  it('reports its name and default model', () => {
    const model = createDemoModel();
    expect(model.name).toBe('demo');
    expect(model.defaultModel).toBe(DEMO_MODEL_ID);
  });

  it('refuses bad options with a code and a fix', () => {
    expect(() => createDemoModel({ charDelayMs: -1 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createDemoModel({ wordsPerChunk: 0 })).toThrow(/wordsPerChunk must be a positive integer/);
  });
});

describe('the demo model is deterministic', () => {
  it('gives the same chunks for the same request, from separate model instances (but for the fresh call ids)', async () => {
    const messages = [user('Research tea and weather in Lima and Seoul, then email kim@example.com')];
    // Call ids are new in every response, as a provider makes them (call-ids.test.ts).
    const withoutIds = (chunks: StreamChunk[]) => chunks.map((chunk) => (chunk.type === 'tool-call-start' ? { ...chunk, id: 'id' } : chunk));
    const a = await chunksOf(createDemoModel({ charDelayMs: 0 }).stream({ messages, tools: ALL_TOOLS }));
    const b = await chunksOf(createDemoModel({ charDelayMs: 0 }).stream({ messages, tools: ALL_TOOLS }));
    expect(a.length).toBeGreaterThan(5);
    expect(withoutIds(b)).toEqual(withoutIds(a));
  });

  it('never throws on arbitrary text, and decides the same way twice (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }).filter((s) => !/simulate\s+(?:an?\s+)?error/i.test(s)), (text) => {
        const first = decideDemoReply({ messages: [user(text)], tools: ALL_TOOLS });
        const second = decideDemoReply({ messages: [user(text)], tools: ALL_TOOLS });
        expect(second).toEqual(first);
        expect(typeof first.text).toBe('string');
      }),
    );
  });
});
