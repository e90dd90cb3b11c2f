import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import { zodToJsonSchema } from 'zod-to-json-schema';
import { SDKError } from '@lousho/protocol';
import { formatIssuePath, isToolSchema, toolSchemaKind, toolSchemaToJSONSchema, validateToolSchema } from '../../src/tools/schema.js';
import { zod3ToJSONSchema } from '../../src/tools/zod3-json-schema.js';

describe('isToolSchema / toolSchemaKind', () => {
  test('recognises zod 4, zod 3 and arktype (a function) schemas', () => {
    expect(isToolSchema(z.object({}))).toBe(true);
    expect(isToolSchema(z3.object({}))).toBe(true);
    expect(isToolSchema(type({ a: 'string' }))).toBe(true);
    expect(toolSchemaKind(z.string())).toBe('zod4');
    expect(toolSchemaKind(zm.string())).toBe('zod4');
    expect(toolSchemaKind(z3.string())).toBe('zod3');
    expect(toolSchemaKind(type('string'))).toBe('standard');
  });

  test('rejects JSON Schemas, shapes and other values', () => {
    for (const value of [undefined, null, 'z.string()', 1, { type: 'object' }, { a: z.string() }, { '~standard': {} }, () => 1]) {
      expect(isToolSchema(value)).toBe(false);
    }
  });
});

describe('validateToolSchema', () => {
  test('zod 4: returns the parsed value with defaults and transforms applied', async () => {
    const schema = z.object({ text: z.string().transform((s) => s.length), n: z.number().default(3), c: z.coerce.number() });
    await expect(validateToolSchema(schema, { text: 'hello', c: '7' })).resolves.toEqual({ ok: true, value: { text: 5, n: 3, c: 7 } });
  });

  test('zod 4: issues carry a dotted path with [i] for indices', async () => {
    const schema = z.object({ to: z.string(), items: z.array(z.object({ qty: z.number() })) });
    const result = await validateToolSchema(schema, { items: [{ qty: 1 }, { qty: 'x' }] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues.map((i) => i.path)).toEqual(['to', 'items[1].qty']);
    expect(result.issues.every((i) => typeof i.message === 'string' && i.message.length > 0)).toBe(true);
  });

  test('zod 3: same behaviour, zod 3 messages', async () => {
    const schema = z3.object({ to: z3.string(), count: z3.number(), when: z3.string().default('now') });
    const bad = await validateToolSchema(schema, { count: 'three' });
    expect(bad).toEqual({
      ok: false,
      issues: [
        { path: 'to', message: 'Required' },
        { path: 'count', message: 'Expected number, received string' },
      ],
    });
    await expect(validateToolSchema(schema, { to: 'a', count: 1 })).resolves.toEqual({ ok: true, value: { to: 'a', count: 1, when: 'now' } });
  });

  test('zod 3 with an async refinement validates through the async path', async () => {
    const schema = z3.object({ name: z3.string().refine(async (s) => s !== 'taken', 'Name is taken') });
    await expect(validateToolSchema(schema, { name: 'taken' })).resolves.toEqual({ ok: false, issues: [{ path: 'name', message: 'Name is taken' }] });
    await expect(validateToolSchema(schema, { name: 'free' })).resolves.toEqual({ ok: true, value: { name: 'free' } });
  });

  test('arktype: validation and morphs', async () => {
    const schema = type({ city: 'string', 'days?': 'number' });
    const bad = await validateToolSchema(schema, { city: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.issues).toEqual([{ path: 'city', message: expect.stringContaining('must be a string') }]);
    await expect(validateToolSchema(type({ n: 'string.numeric.parse' }), { n: '42' })).resolves.toEqual({ ok: true, value: { n: 42 } });
  });

  test('a Standard Schema whose validate is async and fails without issues still yields an issue', async () => {
    const schema = { '~standard': { version: 1 as const, vendor: 'custom', validate: async () => ({ issues: [] }) } };
    await expect(validateToolSchema(schema, 1)).resolves.toEqual({ ok: false, issues: [{ path: '', message: 'Invalid value' }] });
  });
});

describe('formatIssuePath', () => {
  test('documented format', () => {
    expect(formatIssuePath(undefined)).toBe('');
    expect(formatIssuePath([])).toBe('');
    expect(formatIssuePath(['to'])).toBe('to');
    expect(formatIssuePath(['a', 'b', 0, 'c'])).toBe('a.b[0].c');
    expect(formatIssuePath([0, 'x'])).toBe('[0].x');
    expect(formatIssuePath([{ key: 'user' }, { key: 2 }])).toBe('user[2]');
    expect(formatIssuePath(['user-id'])).toBe('user-id');
    expect(formatIssuePath(['a.b', ''])).toBe('["a.b"][""]');
    expect(formatIssuePath(['0'])).toBe('0');
  });

  test('different paths never format to the same text', () => {
    const segment = fc.oneof(fc.string({ maxLength: 4 }), fc.nat({ max: 20 }));
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 4 }), fc.array(segment, { maxLength: 4 }), (a, b) => {
        fc.pre(JSON.stringify(a) !== JSON.stringify(b));
        expect(formatIssuePath(a)).not.toBe(formatIssuePath(b));
      }),
    );
  });
});

describe('toolSchemaToJSONSchema', () => {
  test('zod 4: input side (defaults optional, transforms described by their input), no $schema', () => {
    const schema = z.object({
      location: z.string().describe('City name'),
      units: z.enum(['celsius', 'fahrenheit']).default('celsius'),
      days: z.string().transform((s) => Number(s)),
    });
    expect(toolSchemaToJSONSchema(schema)).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name' },
        units: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'string' },
      },
      required: ['location', 'days'],
    });
  });

  test('zod 3: converted from the schema tree with the same conventions', () => {
    const schema = z3.object({
      location: z3.string().describe('City name'),
      units: z3.enum(['celsius', 'fahrenheit']).default('celsius'),
      days: z3.string().transform((s) => Number(s)),
    });
    expect(toolSchemaToJSONSchema(schema)).toEqual({
      type: 'object',
      properties: {
        location: { type: 'string', description: 'City name' },
        units: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
        days: { type: 'string' },
      },
      required: ['location', 'days'],
      additionalProperties: false,
    });
  });

  test('arktype: uses ~standard.jsonSchema', () => {
    expect(toolSchemaToJSONSchema(type({ city: 'string', 'days?': 'number' }))).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'number' } },
      required: ['city'],
    });
  });

  test('is cached per schema object and frozen', () => {
    const schema = z.object({ a: z.string() });
    const first = toolSchemaToJSONSchema(schema);
    expect(toolSchemaToJSONSchema(schema)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.properties)).toBe(true);
    expect(toolSchemaToJSONSchema(z.object({ a: z.string() }))).not.toBe(first);
  });

  test('zod/mini (no ~standard.jsonSchema) gets an SDKError that says what to do', () => {
    expect(() => toolSchemaToJSONSchema(zm.object({ a: zm.string() }))).toThrow(SDKError);
    try {
      toolSchemaToJSONSchema(zm.object({ a: zm.string() }));
    } catch (err) {
      expect((err as SDKError).code).toBe('LOUSHO_UNSUPPORTED_SCHEMA');
      expect((err as SDKError).hint).toMatch(/classic `zod`.*parameters/);
    }
  });

  test('a Standard Schema without jsonSchema gets an SDKError naming its vendor', () => {
    const schema = { '~standard': { version: 1 as const, vendor: 'valibot', validate: (v: unknown) => ({ value: v }) } };
    expect(() => toolSchemaToJSONSchema(schema)).toThrow(/valibot schema does not expose ~standard\.jsonSchema/);
  });

  test('an unrepresentable zod 4 type reports the library reason and a fix', () => {
    try {
      toolSchemaToJSONSchema(z.object({ when: z.date() }));
      expect.unreachable();
    } catch (err) {
      expect((err as SDKError).code).toBe('LOUSHO_UNSUPPORTED_SCHEMA');
      expect((err as SDKError).message).toMatch(/Date cannot be represented/);
      expect((err as SDKError).hint).toMatch(/ISO/);
    }
  });
});

describe('zod 3 converter', () => {
  // zod-to-json-schema is the reference for what zod 3 users' providers have always seen.
  const reference = (schema: z3.ZodTypeAny) => {
    const { $schema: _drop, ...rest } = zodToJsonSchema(schema, { target: 'jsonSchema7', $refStrategy: 'none', effectStrategy: 'input', pipeStrategy: 'input' }) as Record<string, unknown>;
    return rest;
  };

  test.each([
    ['strings with checks', z3.object({ a: z3.string().min(1).max(5).email(), b: z3.string().uuid(), c: z3.string().url(), d: z3.string().datetime(), e: z3.string().regex(/^a+$/), f: z3.string().length(3), g: z3.string().startsWith('x') })],
    ['numbers', z3.object({ a: z3.number().int().gte(0).lt(10), b: z3.number().multipleOf(5).positive(), c: z3.number().nonnegative().max(5), d: z3.bigint() })],
    ['optional, nullable, default', z3.object({ a: z3.number().optional(), b: z3.string().nullable(), c: z3.boolean().default(true), d: z3.number().nullable().optional(), e: z3.any(), f: z3.unknown() })],
    ['enums and literals', z3.object({ a: z3.enum(['x', 'y']), b: z3.literal(3), c: z3.literal('on'), d: z3.nativeEnum({ A: 'a', B: 1 }), e: z3.union([z3.literal('a'), z3.literal('b')]) })],
    ['collections', z3.object({ a: z3.array(z3.string()).min(1).max(3), b: z3.tuple([z3.string(), z3.number()]), c: z3.record(z3.number()), d: z3.set(z3.string()) })],
    ['objects', z3.object({ a: z3.object({ x: z3.string() }).strict(), b: z3.object({ x: z3.string() }).passthrough(), c: z3.object({}).catchall(z3.number()) })],
    ['unions and intersections', z3.object({ a: z3.union([z3.string(), z3.object({ n: z3.number() })]), b: z3.discriminatedUnion('k', [z3.object({ k: z3.literal('a') }), z3.object({ k: z3.literal('b'), v: z3.string() })]), c: z3.intersection(z3.object({ a: z3.string() }), z3.object({ b: z3.number() })) })],
    ['wrappers', z3.object({ a: z3.string().transform((s) => s.length), b: z3.string().pipe(z3.coerce.number()), c: z3.string().brand('B'), d: z3.string().readonly(), e: z3.lazy(() => z3.string()), f: z3.string().catch('x'), g: z3.preprocess((v) => v, z3.string()), h: z3.string().describe('an h') })],
  ])('%s match zod-to-json-schema', (_label, schema) => {
    expect(zod3ToJSONSchema(schema)).toEqual(reference(schema));
  });

  test('random schema trees match zod-to-json-schema', () => {
    const { leaf } = fc.letrec<{ leaf: z3.ZodTypeAny; node: z3.ZodTypeAny }>((tie) => ({
      leaf: fc.oneof(
        fc.constant(z3.string()),
        fc.nat({ max: 5 }).map((n) => z3.string().min(n)),
        fc.constant(z3.number().int()),
        fc.integer().map((n) => z3.number().max(n)),
        fc.constant(z3.boolean()),
        fc.uniqueArray(fc.stringMatching(/^[a-z]{1,4}$/), { minLength: 1, maxLength: 3 }).map((v) => z3.enum(v as [string, ...string[]])),
        fc.oneof(fc.string({ maxLength: 3 }), fc.integer(), fc.boolean()).map((v) => z3.literal(v)),
        tie('node'),
      ),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('leaf').map((s) => z3.array(s)),
        fc
          .dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.tuple(tie('leaf'), fc.constantFrom('plain', 'optional', 'nullable', 'describe')), { maxKeys: 3 })
          .map((entries) =>
            z3.object(
              Object.fromEntries(
                Object.entries(entries).map(([k, [s, wrap]]) => [k, wrap === 'optional' ? s.optional() : wrap === 'nullable' ? s.nullable() : wrap === 'describe' ? s.describe(`about ${k}`) : s]),
              ),
            ),
          ),
        fc.tuple(tie('leaf'), tie('leaf')).map(([a, b]) => z3.tuple([a, b])),
        tie('leaf').map((s) => z3.record(s)),
      ),
    }));
    fc.assert(
      fc.property(leaf, (schema) => {
        expect(zod3ToJSONSchema(schema)).toEqual(reference(schema));
      }),
      { numRuns: 300 },
    );
  });

  test('where zod-to-json-schema differs, the converter is right: a null literal is type null', () => {
    expect(zod3ToJSONSchema(z3.literal(null))).toEqual({ type: 'null' });
  });

  test('a recursive schema is expanded once, the inner occurrence accepts anything', () => {
    interface Node {
      name: string;
      children: Node[];
    }
    const node: z3.ZodType<Node> = z3.lazy(() => z3.object({ name: z3.string(), children: z3.array(node) }));
    expect(zod3ToJSONSchema(z3.object({ root: node }))).toEqual({
      type: 'object',
      properties: { root: { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: {} } }, required: ['name', 'children'], additionalProperties: false } },
      required: ['root'],
      additionalProperties: false,
    });
  });

  test('a property with an async refinement is still classified as required', () => {
    const schema = z3.object({ a: z3.string().refine(async () => true) });
    expect(zod3ToJSONSchema(schema).required).toEqual(['a']);
  });
});
