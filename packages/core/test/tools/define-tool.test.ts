import { type } from 'arktype';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import * as z3 from 'zod/v3';
import { SDKError } from '@lousho/protocol';
import { defineTool, toolSchemaToJSONSchema, type ToolExecutionContext } from '../../src/tools/index.js';

const ctx: ToolExecutionContext = { toolCallId: 'call_1', messages: [] };

/** Runs a bad definition and returns the SDKError it threw. */
function definitionError(options: unknown): SDKError {
  try {
    defineTool(options as never);
  } catch (err) {
    expect(err).toBeInstanceOf(SDKError);
    expect((err as SDKError).code).toBe('LOUSHO_INVALID_TOOL_DEFINITION');
    return err as SDKError;
  }
  throw new Error('defineTool() accepted a bad definition');
}

const valid = {
  name: 'weather',
  description: 'Get weather information',
  input: z.object({ location: z.string() }),
  execute: async () => ({ temperature: 72 }),
};

describe('defineTool() returns a ToolDescriptor', () => {
  test('inputSchema is the same schema as input, execute is attached, displayName defaults to name', async () => {
    const weather = defineTool(valid);
    expect(weather.name).toBe('weather');
    expect(weather.description).toBe('Get weather information');
    expect(weather.inputSchema).toBe(valid.input);
    expect(weather.input).toBe(valid.input);
    expect(weather.execute).toBe(valid.execute);
    expect(weather.displayName).toBe('weather');
    await expect(weather.execute({ location: 'Paris' }, ctx)).resolves.toEqual({ temperature: 72 });
    expect(Object.isFrozen(weather)).toBe(true);
  });

  test('keeps every optional field', () => {
    const sandboxExecute = async () => ({ temperature: 0 });
    const needsApproval = () => true;
    const outputSchema = z.object({ temperature: z.number() });
    const t = defineTool({ ...valid, displayName: 'Weather', needsApproval, requiresSandbox: true, sandboxExecute, outputSchema, approvalKind: 'tool' });
    expect(t).toMatchObject({ displayName: 'Weather', needsApproval, requiresSandbox: true, sandboxExecute, outputSchema, approvalKind: 'tool' });
  });

  test('leaves unset optional fields out', () => {
    const t = defineTool(valid);
    for (const key of ['needsApproval', 'requiresSandbox', 'sandboxExecute', 'outputSchema', 'approvalKind']) expect(key in t).toBe(false);
  });

  test('builds the legacy ai v4 .tool object, whose execute gets a full context', async () => {
    let seen: ToolExecutionContext | undefined;
    const t = defineTool({ ...valid, execute: async (args, c) => ((seen = c), args.location) });
    expect(t.tool.description).toBe('Get weather information');
    expect(t.tool.parameters).toBe(valid.input);
    await expect(t.tool.execute!({ location: 'Oslo' }, { toolCallId: 'abc', messages: [] })).resolves.toBe('Oslo');
    expect(seen).toEqual({ toolCallId: 'abc', messages: [] });
    await t.tool.execute!({ location: 'Oslo' });
    expect(seen?.toolCallId).toMatch(/^call_legacy_/);
    expect(seen?.messages).toEqual([]);
  });

  test('accepts zod 3, zod 4 and arktype inputs and checks them now', () => {
    expect(defineTool({ ...valid, input: z3.object({ location: z3.string() }) }).inputSchema).toBeDefined();
    expect(defineTool({ ...valid, input: type({ location: 'string' }) }).inputSchema).toBeDefined();
  });

  test('the input JSON Schema is computed at definition time and cached', () => {
    const input = z.object({ a: z.string() });
    const t = defineTool({ ...valid, input });
    expect(toolSchemaToJSONSchema(t.inputSchema)).toBe(toolSchemaToJSONSchema(input));
  });
});

describe('bad definitions fail now, with a message that says how to fix them', () => {
  test('a name with invalid characters suggests a sanitized one', () => {
    const err = definitionError({ ...valid, name: 'get weather!' });
    expect(err.message).toContain("name 'get weather!' contains characters providers reject (a space, '!')");
    expect(err.message).toContain("e.g. 'get_weather'");
    expect(err.hint).toContain("'get_weather'");
  });

  test('a name that is too long', () => {
    const err = definitionError({ ...valid, name: 'a'.repeat(65) });
    expect(err.message).toMatch(/is 65 characters long; providers accept at most 64/);
    expect(err.message).toContain(`e.g. '${'a'.repeat(64)}'`);
  });

  test('a missing, empty or non-string name', () => {
    expect(definitionError({ ...valid, name: undefined }).message).toMatch(/name is missing\. Use 1-64 letters, digits, _ and - only/);
    expect(definitionError({ ...valid, name: '' }).message).toMatch(/name is empty/);
    expect(definitionError({ ...valid, name: 42 }).message).toMatch(/name must be a string, got number/);
  });

  test('64 characters and every allowed character are fine', () => {
    expect(() => defineTool({ ...valid, name: 'a'.repeat(64) })).not.toThrow();
    expect(() => defineTool({ ...valid, name: 'Az09_-' })).not.toThrow();
  });

  test('a missing or blank description', () => {
    expect(definitionError({ ...valid, description: undefined }).message).toMatch(/description is missing\. Add a sentence that tells the model what the tool does/);
    expect(definitionError({ ...valid, description: '   ' }).message).toMatch(/description is empty/);
    expect(definitionError({ ...valid, description: 5 }).message).toMatch(/description must be a string, got a number/);
  });

  test('a missing input, or a schema under another option name', () => {
    const { input: _input, ...noInput } = valid;
    expect(definitionError(noInput).message).toMatch(/input is missing\. Pass a schema of the arguments, e\.g\. input: z\.object/);
    expect(definitionError({ ...noInput, parameters: valid.input }).message).toMatch(/'parameters' is not an option of defineTool\(\)\. Pass the arguments schema as input/);
  });

  test('a plain shape instead of z.object', () => {
    expect(definitionError({ ...valid, input: { location: z.string() } }).message).toMatch(/plain object of schemas.*Wrap it: input: z\.object/);
  });

  test('a JSON Schema instead of a schema', () => {
    expect(definitionError({ ...valid, input: { type: 'object', properties: {} } }).message).toMatch(/looks like a JSON Schema.*parameters/);
  });

  test('something else entirely', () => {
    expect(definitionError({ ...valid, input: 'string' }).message).toMatch(/input must be a zod 3, zod 4 or Standard Schema schema, got a string/);
  });

  test('a schema that does not describe an object', () => {
    const err = definitionError({ ...valid, input: z.string() });
    expect(err.message).toMatch(/input must describe an object .* it describes type "string"\. Wrap it, e\.g\. input: z\.object\(\{ value: <your schema> \}\)/);
    expect(definitionError({ ...valid, input: z3.array(z3.string()) }).message).toMatch(/describes type "array"/);
    expect(definitionError({ ...valid, input: z.any() }).message).toMatch(/describes any value/);
    const both = z3.object({ a: z3.string() }).and(z3.object({ b: z3.number() }));
    expect(definitionError({ ...valid, input: both }).message).toMatch(/without type "object"\. Merge the parts into one object, e\.g\. a\.extend\(b\.shape\)/);
    const either = z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]);
    expect(definitionError({ ...valid, input: either }).message).toMatch(/without type "object"\. Wrap it/);
    // zod 4 merges an intersection of objects into one object, which is fine.
    expect(() => defineTool({ ...valid, input: z.object({ a: z.string() }).and(z.object({ b: z.number() })) })).not.toThrow();
  });

  test('a schema that cannot produce JSON Schema', () => {
    expect(definitionError({ ...valid, input: zm.object({ a: zm.string() }) }).message).toMatch(/input cannot be described to the model: .*zod\/mini.*classic `zod`/s);
    expect(definitionError({ ...valid, input: z.object({ when: z.date() }) }).message).toMatch(/Date cannot be represented/);
  });

  test('execute under another name, or a browser tool (no execute) with server-only options', () => {
    const { execute: _execute, ...noExecute } = valid;
    // Without execute the tool runs in the browser (docs/browser-tools.md).
    expect(defineTool(noExecute as never)).toMatchObject({ approvalKind: 'client' });
    expect(definitionError({ ...noExecute, approvalKind: 'question' }).message).toMatch(/approvalKind 'question' needs execute/);
    expect(definitionError({ ...noExecute, requiresSandbox: true }).message).toMatch(/a tool without execute runs in the browser/);
    expect(definitionError({ ...noExecute, handler: async () => 1 }).message).toMatch(/'handler' is not an option of defineTool\(\)\. Rename it to execute/);
    expect(definitionError({ ...valid, execute: 'run' }).message).toMatch(/execute must be a function, got a string/);
  });

  test('optional fields of the wrong type', () => {
    expect(definitionError({ ...valid, displayName: '' }).message).toMatch(/displayName must be a non-empty string/);
    expect(definitionError({ ...valid, needsApproval: 'yes' }).message).toMatch(/needsApproval must be true\/false or a function/);
    expect(definitionError({ ...valid, approvalKind: 'ask' }).message).toMatch(/approvalKind must be 'tool', 'question' or 'client', got "ask"/);
    expect(definitionError({ ...valid, requiresSandbox: 'yes' }).message).toMatch(/requiresSandbox must be true or false/);
    expect(definitionError({ ...valid, sandboxExecute: {} }).message).toMatch(/sandboxExecute must be a function/);
    expect(definitionError({ ...valid, outputSchema: { type: 'object' } }).message).toMatch(/outputSchema must be a schema/);
  });

  test('every problem is listed at once', () => {
    const err = definitionError({ name: 'bad name', description: '', input: z.object({}), execute: 'run' });
    expect(err.message).toMatch(/^defineTool\(\): tool 'bad name' has 3 problems:/);
    expect(err.message.split('\n  - ')).toHaveLength(4);
    expect(err.hint).toMatch(/^name 'bad name'/);
  });

  test('a non-object argument', () => {
    expect(definitionError(undefined).message).toBe('defineTool() expects an options object, got undefined.');
  });

  test('requiresSandbox without sandboxExecute is allowed: the call is refused at run time instead', () => {
    expect(() => defineTool({ ...valid, requiresSandbox: true })).not.toThrow();
  });
});
