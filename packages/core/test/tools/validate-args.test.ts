import { type } from 'arktype';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { defineTool, parseToolArguments, ToolRegistry, validateToolArguments, validateToolOutput, withArtifacts, type ToolDescriptor } from '../../src/tools/index.js';

describe('parseToolArguments', () => {
  test('blank text means no arguments', () => {
    expect(parseToolArguments('')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('  \n')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('\uFEFF{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
  });

  test('text that is not JSON gives one root issue saying so', () => {
    const parsed = parseToolArguments('{"city": Paris}');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issues).toHaveLength(1);
    expect(parsed.issues[0]!.path).toBe('');
    expect(parsed.issues[0]!.message).toMatch(/^Arguments are not valid JSON \(.+\)\. Send the arguments as one JSON object/);
  });

  test('any JSON value round-trips; any other text fails without throwing', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parseToolArguments(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseToolArguments(text);
        let valid = true;
        try {
          JSON.parse(text.replace(/^\uFEFF/, '').trim() || '{}');
        } catch {
          valid = false;
        }
        expect(parsed.ok).toBe(valid);
      }),
    );
  });
});

describe('validateToolArguments', () => {
  const tool = defineTool({
    name: 'book',
    description: 'Book a table',
    input: z.object({ guests: z.coerce.number().int().min(1), when: z.string().transform((s) => s.toUpperCase()), note: z.string().default('none') }),
    execute: async (args) => args,
  });

  test('applies coercions, transforms and defaults to raw JSON text', async () => {
    await expect(validateToolArguments(tool, '{"guests":"4","when":"tonight"}')).resolves.toEqual({ ok: true, args: { guests: 4, when: 'TONIGHT', note: 'none' } });
  });

  test('accepts already-parsed values too', async () => {
    await expect(validateToolArguments(tool, { guests: 2, when: 'noon' })).resolves.toEqual({ ok: true, args: { guests: 2, when: 'NOON', note: 'none' } });
  });

  test('a mismatch is a validation error result naming each issue', async () => {
    const outcome = await validateToolArguments(tool, '{"guests":0}');
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error).toMatchObject({ error: 'ToolArgumentsValidationError', toolName: 'book', kind: 'validation' });
    expect(outcome.error.issues!.map((i) => i.path)).toEqual(['guests', 'when']);
    expect(outcome.error.message).toMatch(/^Invalid arguments for tool 'book': 2 issues \(guests: .+; when: .+\)$/);
  });

  test('not-JSON text is a validation error result too', async () => {
    const outcome = await validateToolArguments(tool, 'guests=4');
    expect(outcome).toMatchObject({ ok: false, error: { kind: 'validation', error: 'ToolArgumentsValidationError', issues: [{ path: '' }] } });
    if (!outcome.ok) expect(outcome.error.message).toMatch(/^Invalid arguments for tool 'book': 1 issue \(Arguments are not valid JSON/);
  });

  test('empty text validates as {} (a tool without arguments)', async () => {
    const noArgs = defineTool({ name: 'ping', description: 'Ping', input: z.object({}), execute: () => 'pong' });
    await expect(validateToolArguments(noArgs, '')).resolves.toEqual({ ok: true, args: {} });
  });

  test('zod 3 and arktype schemas are applied the same way', async () => {
    const z3tool = defineTool({ name: 'z3', description: 'z3', input: z3.object({ n: z3.number().default(5) }), execute: () => 1 });
    await expect(validateToolArguments(z3tool, '{}')).resolves.toEqual({ ok: true, args: { n: 5 } });
    const arkTool = defineTool({ name: 'ark', description: 'ark', input: type({ n: 'string.numeric.parse' }), execute: () => 1 });
    await expect(validateToolArguments(arkTool, '{"n":"12"}')).resolves.toEqual({ ok: true, args: { n: 12 } });
    const bad = await validateToolArguments(arkTool, '{"n":"twelve"}');
    expect(bad).toMatchObject({ ok: false, error: { kind: 'validation', issues: [{ path: 'n' }] } });
  });

  test('tools without a schema get their arguments unchanged', async () => {
    const raw: ToolDescriptor = { description: 'no schema', execute: () => 1 };
    await expect(validateToolArguments(raw, '{"anything":[1,2]}', 'raw')).resolves.toEqual({ ok: true, args: { anything: [1, 2] } });
    const registry = new ToolRegistry().register('mcp', { parameters: { type: 'object' }, execute: () => 1 });
    await expect(validateToolArguments(registry.get('mcp')!, '{"x":1}')).resolves.toEqual({ ok: true, args: { x: 1 } });
  });

  test('the tool name comes from the third argument, the tool, or a placeholder', async () => {
    const raw: ToolDescriptor = { inputSchema: z.object({ a: z.string() }), execute: () => 1 };
    const named = await validateToolArguments(raw, '{}', 'registered_name');
    expect(!named.ok && named.error.toolName).toBe('registered_name');
    const unnamed = await validateToolArguments(raw, '{}');
    expect(!unnamed.ok && unnamed.error.toolName).toBe('unknown');
  });

  test('a schema that throws while validating is an execution error, not a crash', async () => {
    const throwing: ToolDescriptor = {
      inputSchema: {
        '~standard': {
          version: 1,
          vendor: 'custom',
          validate: () => {
            throw new RangeError('validator exploded');
          },
        },
      },
      execute: () => 1,
    };
    await expect(validateToolArguments(throwing, '{}', 't')).resolves.toEqual({
      ok: false,
      error: { error: 'RangeError', toolName: 't', message: 'validator exploded', kind: 'execution' },
    });
  });
});

describe('validateToolOutput', () => {
  const tool = defineTool({
    name: 'order',
    description: 'Order',
    input: z.object({}),
    outputSchema: z.object({ id: z.string(), total: z.number().default(0) }),
    execute: async () => ({ id: 'o1' }),
  });

  test('a matching result is returned parsed', async () => {
    await expect(validateToolOutput(tool, { id: 'o1' })).resolves.toEqual({ ok: true, result: { id: 'o1', total: 0 } });
  });

  test('a mismatch becomes an output-validation error result', async () => {
    await expect(validateToolOutput(tool, { id: 7 })).resolves.toEqual({
      ok: false,
      error: {
        error: 'ToolOutputValidationError',
        toolName: 'order',
        message: "Invalid result from tool 'order': 1 issue (id: Invalid input: expected string, received number)",
        kind: 'output-validation',
        issues: [{ path: 'id', message: 'Invalid input: expected string, received number' }],
      },
    });
  });

  test('artifacts are kept around the checked value', async () => {
    const wrapped = withArtifacts({ id: 'o2' }, [{ type: 'receipt', data: 'pdf' }]);
    await expect(validateToolOutput(tool, wrapped)).resolves.toEqual({ ok: true, result: withArtifacts({ id: 'o2', total: 0 }, [{ type: 'receipt', data: 'pdf' }]) });
  });

  test('tools without an outputSchema pass unchanged', async () => {
    const result = { anything: true };
    await expect(validateToolOutput({ execute: () => 1 }, result)).resolves.toEqual({ ok: true, result });
  });
});
