import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderTemplate } from '../../src/index.js';

/** A DAG: each level holds the level below twice (its text doubles per level, its objects do not). */
function dag(levels: number): unknown {
  let node: unknown = { leaf: 'x' };
  for (let i = 0; i < levels; i++) node = { left: node, right: node };
  return node;
}

describe('renderTemplate on shared values', () => {
  it('writes a value shared in many places once per place, as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.jsonValue({ maxDepth: 2 }), (levels, leaf) => {
        let node: unknown = { leaf };
        for (let i = 0; i < levels; i++) node = [node, { again: node }];
        expect(renderTemplate('v={{v}}', { v: node })).toBe(`v=${JSON.stringify(node)}`);
      }),
      { numRuns: 200 },
    );
  });

  it('a 40-level DAG (2^40 characters of text) is refused with LOUSHO_LIMIT_EXCEEDED instead of running for hours', () => {
    expect(() => renderTemplate('{{v}}', { v: dag(40) })).toThrow(expect.objectContaining({ code: 'LOUSHO_LIMIT_EXCEEDED', message: expect.stringContaining('1000000 characters') }));
    // 14 levels is 16,384 leaves: well under the bound, and written in full.
    expect(renderTemplate('{{v}}', { v: dag(14) }).match(/"leaf":"x"/g)).toHaveLength(2 ** 14);
  });

  it('cycles are still cut where they close, also next to shared values', () => {
    const shared = { s: 1 };
    const loop: Record<string, unknown> = { a: shared, b: shared };
    loop.self = loop;
    expect(renderTemplate('{{v}}', { v: loop })).toBe('{"a":{"s":1},"b":{"s":1},"self":"[Circular]"}');
    const inner: Record<string, unknown> = {};
    inner.back = { to: inner };
    expect(renderTemplate('{{v}}', { v: [inner, inner] })).toBe('[{"back":{"to":"[Circular]"}},{"back":{"to":"[Circular]"}}]');
  });
});
