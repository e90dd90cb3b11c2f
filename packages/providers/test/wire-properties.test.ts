/**
 * Properties of the wire decoding: however the network splits a response body into reads (even
 * inside a multi-byte character or between `\r` and `\n`), a turn decodes to the same chunks; and
 * no API key survives redaction.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AnthropicProvider, OpenAIProvider, type LLMProvider, type StreamChunk } from '../src/index.js';
import { redactSecrets } from '../src/http-error.js';
import { collect } from './helpers.js';
import {
  ANTHROPIC_PING,
  ANTHROPIC_STOP,
  anthropicMessageDelta,
  anthropicMessageStart,
  anthropicTextBlock,
  anthropicToolBlock,
  OPENAI_DONE,
  openaiChunk,
  openaiParallelToolCallStream,
  openaiUsage,
  openaiUsageChunk,
} from './wire-fixtures.js';

/** A fetch that answers with `body`, delivered in reads cut at `cuts` (byte offsets). */
function fetchServing(body: Uint8Array, cuts: number[]) {
  return async () => {
    const points = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
    const pieces: Uint8Array[] = [];
    let last = 0;
    for (const point of [...points, body.length]) {
      if (point > last) pieces.push(body.slice(last, point));
      last = Math.max(last, point);
    }
    let i = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (i < pieces.length) controller.enqueue(pieces[i++]!);
        else controller.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
}

const encoder = new TextEncoder();

async function decodeWith(make: (fetch: ReturnType<typeof fetchServing>) => LLMProvider, events: string[], cuts: number[], crlf: boolean): Promise<StreamChunk[]> {
  const text = crlf ? events.join('').replace(/\n/g, '\r\n') : events.join('');
  const provider = make(fetchServing(encoder.encode(text), cuts));
  return collect(provider.stream({ messages: [{ role: 'user', content: 'x' }] }));
}

const openai = (fetch: ReturnType<typeof fetchServing>) => new OpenAIProvider({ apiKey: 'sk-prop-000000000000000', env: {}, fetch });
const anthropic = (fetch: ReturnType<typeof fetchServing>) => new AnthropicProvider({ apiKey: 'sk-ant-prop-0000000000', env: {}, fetch });

const OPENAI_EVENTS = [
  openaiChunk({ role: 'assistant', content: '' }),
  openaiChunk({ content: 'Grüße aus Köln 🌧️, ' }),
  openaiChunk({ content: '東京は晴れ。' }),
  ...openaiParallelToolCallStream().slice(0, -3),
  openaiChunk({}, 'tool_calls'),
  openaiUsageChunk(openaiUsage(10, 20, 5, 2)),
  OPENAI_DONE,
];

const ANTHROPIC_EVENTS = [
  anthropicMessageStart(),
  ...anthropicTextBlock(0, ['Grüße ', '🌧️ ', '東京']),
  ANTHROPIC_PING,
  ...anthropicToolBlock(1, 'toolu_x', 'get_weather', ['{"city"', ': "Köln"}']),
  anthropicMessageDelta('tool_use', 30),
  ANTHROPIC_STOP,
];

describe('decoding does not depend on how the body is split into reads', () => {
  const cutsArb = fc.array(fc.nat({ max: 5000 }), { maxLength: 40 });

  it('OpenAI', async () => {
    const reference = await decodeWith(openai, OPENAI_EVENTS, [], false);
    expect(reference.at(-1)).toMatchObject({ type: 'finish', finishReason: 'tool_calls' });
    await fc.assert(
      fc.asyncProperty(cutsArb, fc.boolean(), async (cuts, crlf) => {
        expect(await decodeWith(openai, OPENAI_EVENTS, cuts, crlf)).toEqual(reference);
      }),
      { numRuns: 150 },
    );
  });

  it('Anthropic', async () => {
    const reference = await decodeWith(anthropic, ANTHROPIC_EVENTS, [], false);
    expect(reference.filter((c) => c.type === 'text-delta').map((c) => (c as { text: string }).text).join('')).toBe('Grüße 🌧️ 東京');
    await fc.assert(
      fc.asyncProperty(cutsArb, fc.boolean(), async (cuts, crlf) => {
        expect(await decodeWith(anthropic, ANTHROPIC_EVENTS, cuts, crlf)).toEqual(reference);
      }),
      { numRuns: 150 },
    );
  });

  it('tool-call arguments split anywhere across deltas join back to the exact text', async () => {
    const argsArb = fc.json();
    await fc.assert(
      fc.asyncProperty(argsArb, fc.array(fc.nat(), { maxLength: 10 }), async (args, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (args.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let last = 0;
        for (const point of [...points, args.length]) {
          pieces.push(args.slice(last, point));
          last = point;
        }
        const events = [
          openaiChunk({ tool_calls: [{ index: 0, id: 'call_p', type: 'function', function: { name: 't', arguments: '' } }] }),
          ...pieces.map((piece) => openaiChunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
          openaiChunk({}, 'tool_calls'),
          OPENAI_DONE,
        ];
        const chunks = await decodeWith(openai, events, [], false);
        const joined = chunks.filter((c) => c.type === 'tool-call-delta').map((c) => (c as { argumentsDelta: string }).argumentsDelta).join('');
        expect(joined).toBe(args);
      }),
      { numRuns: 100 },
    );
  });
});

describe('redactSecrets', () => {
  const keyArb = fc.stringMatching(/^[A-Za-z0-9_-]{8,48}$/);

  it('leaves no occurrence of the key, wherever and however often it appears', () => {
    fc.assert(
      fc.property(keyArb, fc.array(fc.string(), { minLength: 1, maxLength: 6 }), (key, around) => {
        const text = around.join(key);
        expect(redactSecrets(text, [key])).not.toContain(key);
      }),
      { numRuns: 300 },
    );
  });

  it('leaves text without secrets alone', () => {
    expect(redactSecrets('Rate limit reached. Please try again in 20s.', ['sk-abcdefgh'])).toBe('Rate limit reached. Please try again in 20s.');
  });

  it('also hides key-shaped strings it was not told about, but not masked ones', () => {
    expect(redactSecrets('proxy saw sk-proj-AbCdEfGhIjKlMnOpQrStUv', [])).toBe('proxy saw [redacted]');
    expect(redactSecrets('Incorrect API key provided: sk-proj-********abcd', [])).toBe('Incorrect API key provided: sk-proj-********abcd');
  });
});
