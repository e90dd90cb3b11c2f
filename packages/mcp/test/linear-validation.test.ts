import { ERROR_CODES, type SkippedMcpTool } from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { jsonSchemaToZod } from '../src/index.js';
import { toolsFromList } from '../src/load-tools.js';

/*
 * Arguments are checked in time linear in the schema and the value. Before, a `oneOf` nested N
 * levels took 2^N branch checks (1.7 s at 20 levels, measured; these 40 levels would take days) and a
 * `pattern` of `^(a+)+$` backtracked for hours on 40 characters. Both finish here; the benchmark
 * (packages/bench, "Untrusted input") times them.
 */
function nestedOneOf(levels: number): unknown {
  return levels === 0 ? { type: 'string' } : { oneOf: [nestedOneOf(levels - 1), { type: 'number' }] };
}

describe('validation time does not depend on how a schema nests', () => {
  it('a oneOf nested 40 levels deep checks a value (2^40 branch checks for a nested zod union)', () => {
    const schema = jsonSchemaToZod({ type: 'object', properties: { v: nestedOneOf(40) }, required: ['v'] });
    expect(schema.safeParse({ v: 'x' }).success).toBe(true);
    expect(schema.safeParse({ v: 1 }).success).toBe(false); // at the top, a number matches both branches
    expect(schema.safeParse({ v: true }).success).toBe(false);
  });

  it('a pattern of ^(a+)+$ answers on 40 characters and on 100,000', () => {
    const schema = jsonSchemaToZod({ type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } });
    expect(schema.safeParse({ v: `${'a'.repeat(40)}!` }).success).toBe(false);
    expect(schema.safeParse({ v: 'a'.repeat(40) }).success).toBe(true);
    expect(schema.safeParse({ v: `${'a'.repeat(100_000)}!` }).success).toBe(false);
    const keys = jsonSchemaToZod({ type: 'object', patternProperties: { '^(a+)+$': { type: 'number' } } });
    expect(keys.safeParse({ [`${'a'.repeat(40)}!`]: 'not checked' }).success).toBe(true);
    expect(keys.safeParse({ [`${'a'.repeat(40)}`]: 'checked' }).success).toBe(false);
  });

  it('a pattern that needs backtracking is refused with LOUSHO_REGEX_UNSUPPORTED, and that tool is skipped with the code', () => {
    expect(() => jsonSchemaToZod({ type: 'string', pattern: '^(a)\\1$' })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_REGEX_UNSUPPORTED }));
    const skipped: SkippedMcpTool[] = [];
    const tools = toolsFromList({ request: (() => Promise.reject(new Error('not called'))) as never }, 'srv', [
      { name: 'lookahead', inputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '^(?=x)' } } } },
      { name: 'fine', inputSchema: { type: 'object', properties: { v: { type: 'string', pattern: '^x' } } } },
    ], { onSkip: (tool) => skipped.push(tool) });
    expect(Object.keys(tools)).toEqual(['srv__fine']);
    expect(skipped).toEqual([{ name: 'lookahead', server: 'srv', code: ERROR_CODES.LOUSHO_REGEX_UNSUPPORTED, reason: expect.stringMatching(/MCP server 'srv', tool 'lookahead': the pattern "\^\(\?=x\)" needs a feature the linear-time engine/) }]);
  });

  it('references that multiply the checks of one value, or loop on it, are refused with LOUSHO_UNSUPPORTED_SCHEMA', () => {
    // d0 checks its value against d1 twice, d1 against d2 twice, ...: 2^30 checks of one string.
    const defs: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i + 1}` }, { $ref: `#/$defs/d${i + 1}` }] };
    expect(() => jsonSchemaToZod({ $ref: '#/$defs/d0', $defs: defs })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, message: expect.stringContaining('subschemas (its references and combinators multiply)') }));
    // The same through child values: each level of { a: ... } is checked twice as often as the one above.
    const doubling = { $defs: { s: { allOf: [{ properties: { a: { $ref: '#/$defs/s' } } }, { properties: { a: { $ref: '#/$defs/s' } } }] } }, $ref: '#/$defs/s' };
    expect(() => jsonSchemaToZod(doubling)).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA }));
    // A reference back to itself on the same value never ends (it overflowed the stack).
    expect(() => jsonSchemaToZod({ $defs: { a: { anyOf: [{ $ref: '#/$defs/a' }, { type: 'string' }] } }, $ref: '#/$defs/a' })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_UNSUPPORTED_SCHEMA, message: expect.stringContaining('leads back to itself') }));
    // Shared definitions used by different parts of the value are fine (each part meets them once).
    const chain: Record<string, unknown> = { d30: { type: 'string' } };
    for (let i = 0; i < 30; i++) chain[`d${i}`] = { type: 'object', properties: { left: { $ref: `#/$defs/d${i + 1}` }, right: { $ref: `#/$defs/d${i + 1}` } } };
    expect(jsonSchemaToZod({ $ref: '#/$defs/d0', $defs: chain }).safeParse({ left: { right: { left: {} } } }).success).toBe(true);
  });

  it('uniqueItems is checked for scalar items (linear) and left to the server otherwise (every pair compared)', () => {
    const scalars = jsonSchemaToZod({ type: 'array', items: { type: 'integer' }, uniqueItems: true });
    expect(scalars.safeParse([1, 2, 1]).success).toBe(false);
    expect(scalars.safeParse(Array.from({ length: 100_000 }, (_, i) => i)).success).toBe(true);
    const objects = jsonSchemaToZod({ type: 'array', items: { type: 'object' }, uniqueItems: true });
    expect(objects.safeParse(Array.from({ length: 20_000 }, () => ({ same: true }))).success).toBe(true);
  });

  it('an invalid pattern (not a regular expression at all) is ignored, as before', () => {
    expect(jsonSchemaToZod({ type: 'string', pattern: '([a-z' }).safeParse('anything').success).toBe(true);
  });
});
