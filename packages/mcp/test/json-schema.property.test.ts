import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSchemaToZod } from '../src/json-schema/to-zod.js';

/*
 * The converter's verdict must be a JSON Schema validator's: for random schemas in the subset the
 * docs list and random values, zod accepts exactly what ajv (the reference validator) accepts.
 * Recursive $ref (expanded once on purpose) and `default` (zod fills it in) are left out of the
 * comparison; they have example tests of their own.
 */

const ajv = new Ajv({ strict: false, validateSchema: false, allowMatchJsonSchema: true } as never);
const KEYS = ['a', 'b', 'c'];
const PATTERNS = ['^a', 'b$', '^[a-c]*$', '\\d', 'é', '^.{2}$'];

const smallInt = fc.integer({ min: -3, max: 3 });
const smallNumber = fc.oneof(smallInt, fc.constantFrom(-1.5, 0.5, 2.5));
const count = fc.integer({ min: 0, max: 3 });
const primitive = fc.oneof(fc.constantFrom('a', 'b', 'ab', '', '1', 'é😀'), smallNumber, fc.boolean(), fc.constant(null));

/** Adds some of the given optional keywords to `base`. */
function withSome(base: Record<string, unknown>, keywords: Record<string, fc.Arbitrary<unknown>>) {
  return fc.record(keywords, { requiredKeys: [] }).map((extra) => ({ ...base, ...extra }));
}

const stringKeywords = { minLength: count, maxLength: count, pattern: fc.constantFrom(...PATTERNS) };
const numberKeywords = { minimum: smallNumber, maximum: smallNumber, exclusiveMinimum: smallNumber, exclusiveMaximum: smallNumber };

const { schema: schemaArb } = fc.letrec<{ schema: Record<string, unknown>; leaf: Record<string, unknown> }>((tie) => ({
  leaf: fc.oneof(
    fc.constant({}),
    withSome({ type: 'string' }, stringKeywords),
    withSome({ type: 'number' }, numberKeywords),
    withSome({ type: 'integer' }, numberKeywords),
    fc.constantFrom({ type: 'boolean' }, { type: 'null' }, { type: ['string', 'null'] }, { type: ['integer', 'boolean'] }),
    fc.array(primitive, { minLength: 1, maxLength: 4 }).map((values) => ({ enum: values })),
    fc.oneof(primitive, fc.constant({ a: 1 }), fc.constant([1, 'a'])).map((value) => ({ const: value })),
    withSome({}, { minLength: count, minimum: smallNumber, maxItems: count }),
    fc.constant({ $ref: '#/$defs/word' }),
    fc.constant({ $ref: '#/definitions/small' }),
  ),
  schema: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('leaf'),
    withSome({ type: 'array' }, { items: tie('schema'), minItems: count, maxItems: count }),
    fc
      .record({
        properties: fc.dictionary(fc.constantFrom(...KEYS), tie('schema'), { maxKeys: 3 }),
        required: fc.subarray([...KEYS, 'd']),
        additionalProperties: fc.oneof(fc.boolean(), tie('schema')),
      }, { requiredKeys: [] })
      .map((object) => ({ type: 'object', ...object })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((branches) => ({ anyOf: branches })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 3 }).map((branches) => ({ oneOf: branches })),
    fc.array(tie('schema'), { minLength: 1, maxLength: 2 }).map((branches) => ({ allOf: branches })),
    tie('schema').map((inner) => ({ anyOf: [inner, { type: 'null' }] })),
  ),
}));

const DEFS = { $defs: { word: { type: 'string', minLength: 2 } }, definitions: { small: { type: 'integer', maximum: 1 } } };

/** Values that hit the generated schemas' edges: small numbers, short strings, objects with the same keys. */
const { value: valueArb } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    primitive,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...KEYS, 'd', 'e'), tie('value'), { maxKeys: 4 }),
  ),
}));

describe('jsonSchemaToZod agrees with ajv', () => {
  it('on random schemas of the supported subset and random values', () => {
    fc.assert(
      fc.property(schemaArb, fc.array(valueArb, { minLength: 1, maxLength: 8 }), (generated, values) => {
        const schema = { ...generated, ...DEFS };
        const validate = ajv.compile(schema);
        const converted = jsonSchemaToZod(schema);
        for (const value of values) {
          // The reference judges the value as JSON: ajv's own deep equality also compares
          // prototypes, and fc.dictionary makes null-prototype objects (seed 1613461832).
          const expected = validate(JSON.parse(JSON.stringify(value)));
          const actual = converted.safeParse(value).success;
          if (actual !== expected) throw new Error(`zod ${actual} vs ajv ${expected} for ${JSON.stringify(value)} against ${JSON.stringify(schema)}`);
        }
      }),
      { numRuns: 300 },
    );
  }, 60_000);

  it('judges a null-prototype object as the JSON it is (regression: seed 1613461832, const {"a":1})', () => {
    const value = Object.assign(Object.create(null) as Record<string, unknown>, { a: 1 });
    expect(jsonSchemaToZod({ const: { a: 1 } }).safeParse(value).success).toBe(true);
    expect(jsonSchemaToZod({ enum: [{ a: 1 }] }).safeParse(value).success).toBe(true);
    expect(jsonSchemaToZod({ const: { a: 2 } }).safeParse(value).success).toBe(false);
  });

  it('the seed that failed (1613461832) passes', () => {
    fc.assert(
      fc.property(schemaArb, fc.array(valueArb, { minLength: 1, maxLength: 8 }), (generated, values) => {
        const schema = { ...generated, ...DEFS };
        const validate = ajv.compile(schema);
        const converted = jsonSchemaToZod(schema);
        for (const value of values) expect(converted.safeParse(value).success).toBe(validate(JSON.parse(JSON.stringify(value))));
      }),
      { numRuns: 300, seed: 1613461832 },
    );
  }, 60_000);

  it('never throws but a coded refusal, for any JSON as the schema and any JSON as the value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (schema, value) => {
        const converted = convertOrRefuse(schema);
        if (converted) expect(typeof converted.safeParse(value).success).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
    // The same with schema-shaped junk: keywords with values of the wrong type.
    const keyword = fc.constantFrom('type', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', '$ref', 'properties', 'required', 'items', 'additionalProperties', 'pattern', 'minLength', 'minimum', 'default', '$defs');
    const junk = fc.letrec<{ node: unknown }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 1 }), fc.dictionary(keyword, tie('node'), { maxKeys: 4 }), fc.array(tie('node'), { maxLength: 3 })),
    })).node;
    fc.assert(
      fc.property(junk, fc.jsonValue(), (schema, value) => {
        const converted = convertOrRefuse(schema);
        if (converted) expect(typeof converted.safeParse(value).success).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  }, 60_000);
});

/** The converted schema, or undefined when it was refused with one of the documented codes. */
function convertOrRefuse(schema: unknown) {
  try {
    return jsonSchemaToZod(schema);
  } catch (error) {
    expect((error as { code?: unknown }).code).toBeOneOf(['LOUSHO_REGEX_UNSUPPORTED', 'LOUSHO_UNSUPPORTED_SCHEMA']);
    return undefined;
  }
}
