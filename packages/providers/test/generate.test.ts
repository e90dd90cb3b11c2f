import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SDKError } from '@lousho/protocol';
import {
  generateFromStream,
  ProviderStreamError,
  StreamAssembler,
  type GenerateResult,
  type LLMProvider,
  type StreamChunk,
} from '../src/index.js';

function assemble(chunks: StreamChunk[]): StreamAssembler {
  const assembler = new StreamAssembler();
  for (const chunk of chunks) assembler.push(chunk);
  return assembler;
}

function streamingProvider(chunks: StreamChunk[]): LLMProvider {
  return {
    name: 'fake',
    async *stream() {
      yield* chunks;
    },
  };
}

describe('StreamAssembler', () => {
  it('joins text and assembles tool calls from start/delta pieces, ordered by index', () => {
    const a = assemble([
      { type: 'text-delta', text: 'Let me ' },
      { type: 'tool-call-start', index: 1, id: 'b', name: 'second' },
      { type: 'text-delta', text: 'check.' },
      { type: 'tool-call-start', index: 0, id: 'a', name: 'first' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '{"y":' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-delta', index: 1, argumentsDelta: '2}' },
      { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5 } },
    ]);
    expect(a.text).toBe('Let me check.');
    expect(a.toolCalls).toEqual([
      { id: 'a', name: 'first', arguments: '{"x":1}' },
      { id: 'b', name: 'second', arguments: '{"y":2}' },
    ]);
    expect(a.finishReason).toBe('tool_calls');
    expect(a.usage).toEqual({ promptTokens: 10, completionTokens: 5 });
    expect(a.done).toBe(true);
  });

  it('takes complete tool-call chunks from providers that do not stream arguments', () => {
    const a = assemble([
      { type: 'tool-call', index: 0, id: 'c1', name: 'lookup', arguments: '{"q":"x"}' },
      { type: 'finish', finishReason: 'tool_calls' },
    ]);
    expect(a.toolCalls).toEqual([{ id: 'c1', name: 'lookup', arguments: '{"q":"x"}' }]);
    expect(a.usage).toBeUndefined();
  });

  it('lets a complete tool-call chunk replace the pieces streamed for its index', () => {
    const a = assemble([
      { type: 'tool-call-start', index: 0, id: 'c1', name: 'lookup' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"q":' },
      { type: 'tool-call', index: 0, id: 'c1', name: 'lookup', arguments: '{"q":"final"}' },
    ]);
    expect(a.toolCalls).toEqual([{ id: 'c1', name: 'lookup', arguments: '{"q":"final"}' }]);
  });

  it('keeps reasoning apart from text', () => {
    const a = assemble([
      { type: 'reasoning-delta', text: 'thinking ' },
      { type: 'reasoning-delta', text: 'hard' },
      { type: 'text-delta', text: 'Answer' },
    ]);
    expect(a.reasoning).toBe('thinking hard');
    expect(a.text).toBe('Answer');
  });

  it('infers the finish reason when the finish chunk is missing', () => {
    const textOnly = assemble([{ type: 'text-delta', text: 'hi' }]);
    expect(textOnly.done).toBe(false);
    expect(textOnly.finishReason).toBe('stop');
    expect(textOnly.usage).toBeUndefined();
    expect(textOnly.result()).toEqual({ text: 'hi', toolCalls: [], finishReason: 'stop' });

    const withCall = assemble([{ type: 'tool-call-start', index: 0, id: 'c', name: 't' }]);
    expect(withCall.finishReason).toBe('tool_calls');
    expect(withCall.toolCalls).toEqual([{ id: 'c', name: 't', arguments: '' }]);
  });

  it('keeps the provider-reported finish reason as is', () => {
    expect(assemble([{ type: 'text-delta', text: 'cut' }, { type: 'finish', finishReason: 'length' }]).finishReason).toBe('length');
  });

  it('rejects arguments for a call that was never started, with a code and a fix', () => {
    const a = new StreamAssembler();
    let caught: unknown;
    try {
      a.push({ type: 'tool-call-delta', index: 3, argumentsDelta: '{}' });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ProviderStreamError);
    expect(SDKError.is(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'LOUSHO_PROVIDER_ERROR' });
    expect((caught as Error).message).toMatch(/index 3.*never started/);
    expect((caught as { hint: string }).hint).toContain('tool-call-start');
  });

  it('rejects a second, different call on the same index but tolerates a repeated start', () => {
    const a = assemble([
      { type: 'tool-call-start', index: 0, id: 'c', name: 't' },
      { type: 'tool-call-start', index: 0, id: 'c', name: 't' },
    ]);
    expect(a.toolCalls).toHaveLength(1);
    expect(() => a.push({ type: 'tool-call-start', index: 0, id: 'd', name: 'u' })).toThrow(ProviderStreamError);
  });

  it('rejects chunks after the finish chunk', () => {
    const a = assemble([{ type: 'finish', finishReason: 'stop' }]);
    expect(() => a.push({ type: 'text-delta', text: 'late' })).toThrow(/after its "finish" chunk/);
  });

  it('returns copies, so callers cannot corrupt the assembled turn', () => {
    const a = assemble([{ type: 'tool-call', index: 0, id: 'c', name: 't', arguments: '{}' }, { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 1 } }]);
    const calls = a.toolCalls;
    (calls[0] as { name: string }).name = 'changed';
    (a.usage as { promptTokens: number }).promptTokens = 99;
    expect(a.toolCalls[0]?.name).toBe('t');
    expect(a.usage?.promptTokens).toBe(1);
  });

  it('reads stay correct when interleaved with pushes', () => {
    const a = new StreamAssembler();
    a.push({ type: 'text-delta', text: 'a' });
    a.push({ type: 'text-delta', text: 'b' });
    expect(a.text).toBe('ab');
    a.push({ type: 'text-delta', text: 'c' });
    expect(a.text).toBe('abc');
    a.push({ type: 'tool-call-start', index: 0, id: 'c', name: 't' });
    a.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '{' });
    expect(a.toolCalls[0]?.arguments).toBe('{');
    a.push({ type: 'tool-call-delta', index: 0, argumentsDelta: '}' });
    expect(a.toolCalls[0]?.arguments).toBe('{}');
  });

  it('assembles a very finely split long text (one character per chunk)', () => {
    const text = 'x'.repeat(200_000);
    const a = new StreamAssembler();
    for (const ch of text) a.push({ type: 'text-delta', text: ch });
    expect(a.text).toBe(text);
  });
});

/** Splits `s` at the given cut points (clamped and sorted) into consecutive pieces. */
function splitAt(s: string, cuts: number[]): string[] {
  const points = [...new Set(cuts.map((c) => c % (s.length + 1)))].sort((x, y) => x - y);
  const pieces: string[] = [];
  let last = 0;
  for (const p of points) {
    pieces.push(s.slice(last, p));
    last = p;
  }
  pieces.push(s.slice(last));
  return pieces;
}

describe('StreamAssembler (property: any split and interleaving yields the same turn)', () => {
  const callArb = fc.record({ name: fc.stringMatching(/^[a-z_]{1,12}$/), args: fc.json(), cuts: fc.array(fc.nat(), { maxLength: 12 }) });
  it('assembles identical text and tool calls', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.array(callArb, { maxLength: 4 }),
        fc.array(fc.nat(), { minLength: 0, maxLength: 100 }),
        fc.boolean(),
        (text, textCuts, calls, schedule, withFinish) => {
          // One ordered chunk sequence per source; a random schedule interleaves them.
          const sequences: StreamChunk[][] = [splitAt(text, textCuts).map((t) => ({ type: 'text-delta', text: t }))];
          calls.forEach((call, index) => {
            sequences.push([
              { type: 'tool-call-start', index, id: `id_${index}`, name: call.name },
              ...splitAt(call.args, call.cuts).map((piece): StreamChunk => ({ type: 'tool-call-delta', index, argumentsDelta: piece })),
            ]);
          });
          const chunks: StreamChunk[] = [];
          let turn = 0;
          while (sequences.some((s) => s.length > 0)) {
            const open = sequences.filter((s) => s.length > 0);
            const pick = open[(schedule[turn++ % Math.max(1, schedule.length)] ?? 0) % open.length] as StreamChunk[];
            chunks.push(pick.shift() as StreamChunk);
          }
          if (withFinish) chunks.push({ type: 'finish', finishReason: calls.length ? 'tool_calls' : 'stop', usage: { promptTokens: 1 } });

          const expected: GenerateResult = {
            text,
            toolCalls: calls.map((call, index) => ({ id: `id_${index}`, name: call.name, arguments: call.args })),
            finishReason: calls.length ? 'tool_calls' : 'stop',
          };
          if (withFinish) expected.usage = { promptTokens: 1 };
          expect(assemble(chunks).result()).toEqual(expected);
        },
      ),
    );
  });
});

describe('generateFromStream', () => {
  it('collects a streaming provider into one result', async () => {
    const result = await generateFromStream(
      streamingProvider([
        { type: 'text-delta', text: 'Hel' },
        { type: 'text-delta', text: 'lo' },
        { type: 'finish', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 1 } },
      ]),
      { messages: [{ role: 'user', content: 'hi' }] },
    );
    expect(result).toEqual({ text: 'Hello', toolCalls: [], finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 1 } });
  });

  it("uses the provider's own generate() when it has one", async () => {
    const own: GenerateResult = { text: 'from generate', toolCalls: [], finishReason: 'stop' };
    const provider: LLMProvider = {
      name: 'both',
      stream: () => {
        throw new Error('stream should not be used');
      },
      generate: async () => own,
    };
    await expect(generateFromStream(provider, { messages: [] })).resolves.toBe(own);
  });

  it('rejects with an AbortError without calling the provider when already aborted', async () => {
    let called = false;
    const provider: LLMProvider = {
      name: 'spy',
      async *stream() {
        called = true;
        yield { type: 'text-delta', text: 'x' };
      },
    };
    const controller = new AbortController();
    controller.abort();
    await expect(generateFromStream(provider, { messages: [], signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(called).toBe(false);
  });

  it('stops with an AbortError mid-stream even when the provider ignores the signal', async () => {
    const controller = new AbortController();
    let closed = false;
    const provider: LLMProvider = {
      name: 'deaf',
      async *stream() {
        try {
          yield { type: 'text-delta', text: 'one' };
          controller.abort();
          yield { type: 'text-delta', text: 'two' };
          yield { type: 'finish', finishReason: 'stop' };
        } finally {
          closed = true;
        }
      },
    };
    await expect(generateFromStream(provider, { messages: [], signal: controller.signal })).rejects.toMatchObject({ name: 'AbortError' });
    expect(closed).toBe(true);
  });

  it('surfaces contract violations from the stream', async () => {
    const provider = streamingProvider([{ type: 'tool-call-delta', index: 0, argumentsDelta: '{}' }]);
    await expect(generateFromStream(provider, { messages: [] })).rejects.toMatchObject({ code: 'LOUSHO_PROVIDER_ERROR' });
  });
});
