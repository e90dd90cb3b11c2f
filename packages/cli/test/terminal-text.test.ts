import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalText } from '../src/eval/terminal-text.js';

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// Any text with escape sequences mixed in: CSI, OSC (title, hyperlink), DCS, lone ESCs, C1 forms.
const hostile = fc
  .array(fc.oneof(fc.string({ unit: 'binary' }), fc.constantFrom('\u001b[2J', '\u001b]0;title\u0007', '\u001b]8;;http://x\u001b\\', '\u001bP1$r\u001b\\', '\u001b', '\u009b31m', '\u001b(B', '\r', '\u202e')), { maxLength: 20 })
  .map((parts) => parts.join(''));

describe('terminalText', () => {
  it('leaves no control character, escape or bidi override in any text', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        expect(terminalText(text)).not.toMatch(UNSAFE);
      }),
    );
  });

  it('keeps text without control characters as it is', () => {
    const safe = fc.string({ unit: 'grapheme' }).filter((text) => !UNSAFE.test(text));
    fc.assert(
      fc.property(safe, (text) => {
        expect(terminalText(text)).toBe(text);
      }),
    );
  });

  it('takes linear time on long runs of escape openers', () => {
    const text = '\u001b]'.repeat(50_000) + '\u001b['.repeat(50_000);
    expect(terminalText(text)).toBe('');
  });
});
