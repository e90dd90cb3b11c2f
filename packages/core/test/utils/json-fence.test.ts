import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonFence, stripJsonFence } from '../../src/utils/json-fence.js';

// Replies built from the characters that matter to a fence, so short random strings hit every case.
const reply = fc.array(fc.constantFrom('`', ' ', '\n', '\t', 'j', 's', 'o', 'n', 'J', 'S', '{', '}', 'x'), { maxLength: 24 }).map((c) => c.join(''));

describe('stripJsonFence: a reply that is one fenced block', () => {
  const byRegex = (text: string) => {
    const trimmed = text.trim();
    return /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(trimmed)?.[1] ?? trimmed;
  };

  it('comes off exactly as the earlier regex took it, for any short reply', () => {
    fc.assert(fc.property(reply, (text) => stripJsonFence(text) === byRegex(text)), { numRuns: 2000 });
  });

  it('is read in one pass: a reply of many spaces inside a fence', () => {
    expect(stripJsonFence('```' + ' '.repeat(200_000) + 'x')).toBe('```' + ' '.repeat(200_000) + 'x');
    expect(stripJsonFence('```json' + ' '.repeat(200_000) + '{}' + ' '.repeat(200_000) + '```')).toBe('{}');
  });
});

describe('findJsonFence: the first fenced block anywhere in a reply', () => {
  const byRegex = (text: string) => /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1]?.trim();

  it('finds what the earlier regex found, for any short reply', () => {
    fc.assert(fc.property(reply, (text) => findJsonFence(text) === byRegex(text)), { numRuns: 2000 });
  });

  it('takes the block out of prose around it', () => {
    expect(findJsonFence('Here it is:\n```JSON\n{"a": 1}\n```\nDone.')).toBe('{"a": 1}');
    expect(findJsonFence('no fence here')).toBeUndefined();
  });

  it('is read in one pass: an opening, many spaces and no closing fence', () => {
    expect(findJsonFence('```json' + ' \n'.repeat(200_000) + 'x')).toBeUndefined();
  });
});
