import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@lousho/protocol';
import { estimateTokens, setTokenEstimator } from '../../src/models/index.js';

const ENGLISH =
  'The quarterly report shows that revenue grew by twelve percent, driven mostly by new customers in ' +
  'Europe. Operating costs stayed flat, although the team hired four engineers to work on the mobile ' +
  'application. Next quarter, the company plans to expand into two more markets and to reduce churn.';

afterEach(() => setTokenEstimator(undefined));

describe('estimateTokens: text', () => {
  it('counts English at about 4 characters per token', () => {
    const tokens = estimateTokens(ENGLISH);
    // Real tokenizers give ~60 tokens here; the heuristic must stay within a sane band.
    expect(tokens).toBeGreaterThan(ENGLISH.length / 5.5);
    expect(tokens).toBeLessThan(ENGLISH.length / 3);
  });

  it('counts more tokens per character for CJK and other scripts', () => {
    const perChar = (text: string) => estimateTokens(text) / text.length;
    const english = perChar(ENGLISH);
    const chinese = perChar('今天我们去公园散步，然后在湖边吃午饭。下午回家以后，我们一起看了一部很有意思的电影。');
    const japanese = perChar('今日は公園を散歩して、それから湖のそばで昼ご飯を食べました。');
    const korean = perChar('오늘은 공원에서 산책을 하고 호숫가에서 점심을 먹었습니다');
    const russian = perChar('Сегодня мы гуляли в парке, а потом обедали у озера.');
    const hindi = perChar('आज हम पार्क में टहले और फिर झील के किनारे खाना खाया।');

    expect(chinese).toBeGreaterThan(english * 2);
    expect(japanese).toBeGreaterThan(english * 2);
    expect(korean).toBeGreaterThan(english * 2);
    expect(russian).toBeGreaterThan(english);
    expect(hindi).toBeGreaterThan(english);
    // About one token per Chinese character, not several.
    expect(chinese).toBeLessThanOrEqual(1.2);
  });

  it('counts digits and code punctuation denser than prose', () => {
    const prose = 'aaaa bbbb cccc dddd eeee ffff';
    expect(estimateTokens('1234567890 1234567890 12345678')).toBeGreaterThan(estimateTokens(prose));
    expect(estimateTokens('{"a":[1,2],"b":{"c":null}}  ')).toBeGreaterThan(estimateTokens(prose));
  });

  it('counts nothing as zero', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens([])).toBe(0);
  });

  it('grows with the input and never shrinks when text is appended', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 200 }), (a, b) => {
        expect(estimateTokens(a + b)).toBeGreaterThanOrEqual(estimateTokens(a));
        expect(estimateTokens(a + b)).toBeGreaterThanOrEqual(estimateTokens(b));
      }),
    );
  });

  it('is additive over concatenation (within rounding)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.string({ unit: 'binary', maxLength: 300 }), (a, b) => {
        const whole = estimateTokens(a + b);
        const parts = estimateTokens(a) + estimateTokens(b);
        expect(whole).toBeLessThanOrEqual(parts);
        expect(parts - whole).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('scales linearly with repetition', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 50 }), fc.integer({ min: 1, max: 200 }), (s, k) => {
        const once = estimateTokens(s);
        const many = estimateTokens(s.repeat(k));
        expect(many).toBeLessThanOrEqual(once * k);
        expect(many).toBeGreaterThanOrEqual((once - 1) * k);
      }),
    );
  });
});

describe('estimateTokens: messages', () => {
  it('adds a per-message overhead on top of the text', () => {
    const text = estimateTokens('Summarise this report');
    const one = estimateTokens({ role: 'user', content: 'Summarise this report' });
    const transcript = estimateTokens([{ role: 'user', content: 'Summarise this report' }]);
    expect(one).toBeGreaterThan(text);
    expect(transcript).toBeGreaterThan(one);
    expect(estimateTokens({ role: 'user', content: '' })).toBeGreaterThan(0);
  });

  it('counts text parts, images and files, but not metadata', () => {
    const plain: Message = { role: 'user', content: ENGLISH };
    const parts: Message = { role: 'user', content: [{ type: 'text', text: ENGLISH }] };
    expect(estimateTokens(parts)).toBe(estimateTokens(plain));

    const withImage: Message = { role: 'user', content: [{ type: 'text', text: ENGLISH }, { type: 'image', image: 'data:image/png;base64,' + 'A'.repeat(50_000) }] };
    const imageTokens = estimateTokens(withImage) - estimateTokens(plain);
    // An image costs a fixed, realistic amount, whatever the size of its base64 text.
    expect(imageTokens).toBeGreaterThanOrEqual(500);
    expect(imageTokens).toBeLessThanOrEqual(2000);

    const smallFile = estimateTokens({ role: 'user', content: [{ type: 'file', data: 'A'.repeat(4_000), mimeType: 'application/pdf' }] });
    const bigFile = estimateTokens({ role: 'user', content: [{ type: 'file', data: 'A'.repeat(40_000), mimeType: 'application/pdf' }] });
    expect(bigFile).toBeGreaterThan(smallFile * 5);

    const withMetadata: Message = { ...plain, metadata: { note: ENGLISH.repeat(20) } };
    expect(estimateTokens(withMetadata)).toBe(estimateTokens(plain));
  });

  it("counts the tool calls' names and JSON arguments, and tool results", () => {
    const args = JSON.stringify({ cities: ['Paris', 'Berlin', 'Madrid'], metric: 'cost of living', year: 2025 });
    const bare: Message = { role: 'assistant', content: '' };
    const withCall: Message = { ...bare, toolCalls: [{ id: 'call_1', name: 'compare_cities', arguments: args }] };
    const added = estimateTokens(withCall) - estimateTokens(bare);
    expect(added).toBeGreaterThanOrEqual(estimateTokens(args) + estimateTokens('compare_cities'));

    const twoCalls: Message = { ...bare, toolCalls: [withCall.toolCalls![0]!, { id: 'call_2', name: 'compare_cities', arguments: args }] };
    expect(estimateTokens(twoCalls) - estimateTokens(bare)).toBeGreaterThanOrEqual(2 * added - 1);

    const result: Message = { role: 'tool', toolCallId: 'call_1', toolName: 'compare_cities', content: '{"cheapest":"Madrid"}' };
    expect(estimateTokens(result)).toBeGreaterThan(estimateTokens('{"cheapest":"Madrid"}'));
  });

  it('is roughly additive over transcripts', () => {
    const message = fc.record({
      role: fc.constantFrom('user', 'assistant', 'tool', 'system'),
      content: fc.string({ unit: 'grapheme', maxLength: 120 }),
    }) as fc.Arbitrary<Message>;
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), fc.array(message, { minLength: 1, maxLength: 8 }), (a, b) => {
        const whole = estimateTokens([...a, ...b]);
        const parts = estimateTokens(a) + estimateTokens(b);
        // The only difference is one reply priming (a few tokens) and rounding.
        expect(Math.abs(parts - whole)).toBeLessThanOrEqual(5);
      }),
    );
  });
});

describe('estimateTokens: custom tokenizers', () => {
  it('uses options.estimator for each text piece and passes the model', () => {
    const estimator = vi.fn((text: string) => text.length);
    const tokens = estimateTokens('hello world', { model: 'gpt-4o', estimator });
    expect(tokens).toBe(11);
    expect(estimator).toHaveBeenCalledWith('hello world', { model: 'gpt-4o' });
  });

  it('keeps the message structure around the tokenizer counts', () => {
    const estimator = () => 10;
    const withOverhead = estimateTokens([{ role: 'user', content: 'anything' }], { estimator });
    expect(withOverhead).toBeGreaterThan(10);
    expect(withOverhead).toBeLessThan(20);
  });

  it('uses setTokenEstimator globally until it is cleared, and a per-call estimator wins', () => {
    const heuristic = estimateTokens(ENGLISH);
    setTokenEstimator(() => 1);
    expect(estimateTokens(ENGLISH)).toBe(1);
    expect(estimateTokens(ENGLISH, { estimator: () => 7 })).toBe(7);
    setTokenEstimator(undefined);
    expect(estimateTokens(ENGLISH)).toBe(heuristic);
  });

  it('falls back to the heuristic when a tokenizer returns a broken count', () => {
    const heuristic = estimateTokens(ENGLISH);
    expect(estimateTokens(ENGLISH, { estimator: () => Number.NaN })).toBe(heuristic);
    expect(estimateTokens(ENGLISH, { estimator: () => -3 })).toBe(heuristic);
  });
});
