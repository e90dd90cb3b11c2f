import { type } from 'arktype';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as z3 from 'zod/v3';
import { SDKError } from '@lousho/protocol';
import { defineTool, resolveToolDescriptor, ToolRegistry, validateToolArguments, type ToolDescriptor, type ToolExecutionContext } from '../../src/tools/index.js';

const ctx: ToolExecutionContext = { toolCallId: 'call_1', messages: [] };

function thrown(fn: () => unknown): SDKError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SDKError);
    return err as SDKError;
  }
  throw new Error('expected a throw');
}

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look up an order',
  input: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});

describe('the docs snippet', () => {
  test('register(tool) and register(name, descriptor)', async () => {
    // `currentDateTool` is a built-in written in another folder; a hand-written descriptor of the same
    // kind (no name, no schema, an execute) stands in for it here.
    const currentDateTool: ToolDescriptor = { description: 'Current date and time (ISO, UTC)', execute: async () => new Date(0).toISOString() };

    const tools = new ToolRegistry();
    tools.register(lookupOrder);
    tools.register('current_date', currentDateTool);

    expect(tools.names()).toEqual(['lookup_order', 'current_date']);
    expect(tools.has('lookup_order')).toBe(true);
    await expect(tools.get('lookup_order')!.execute!({ orderId: 'A1' }, ctx)).resolves.toEqual({ orderId: 'A1', status: 'shipped' });
    await expect(tools.get('current_date')!.execute!({}, ctx)).resolves.toBe('1970-01-01T00:00:00.000Z');
  });
});

describe('registering', () => {
  test('registerMany takes a record keyed by name or an array of defined tools', () => {
    const other = defineTool({ name: 'other', description: 'Other', input: z.object({}), execute: () => 1 });
    const fromArray = new ToolRegistry().registerMany([lookupOrder, other]);
    expect(fromArray.names()).toEqual(['lookup_order', 'other']);
    const fromRecord = new ToolRegistry().registerMany({ current_date: { description: 'Date', execute: () => 'now' }, lookup: lookupOrder });
    expect(fromRecord.names()).toEqual(['current_date', 'lookup']);
    expect(fromRecord.get('lookup')!.name).toBe('lookup');
    expect(new ToolRegistry([lookupOrder]).names()).toEqual(['lookup_order']);
  });

  test('get() returns a normalized descriptor that points back at what was registered', () => {
    const tools = new ToolRegistry().register(lookupOrder);
    const resolved = tools.get('lookup_order')!;
    expect(resolved.descriptor).toBe(lookupOrder);
    expect(resolved.inputSchema).toBe(lookupOrder.inputSchema);
    expect(resolved.displayName).toBe('lookup_order');
    expect(resolved.approvalKind).toBe('tool');
    expect(resolved.requiresSandbox).toBe(false);
    expect(tools.get('missing')).toBeUndefined();
    expect(tools.list().map((t) => t.name)).toEqual(['lookup_order']);
    expect(tools.size).toBe(1);
  });

  test('register(tool) without a name points at register(name, descriptor)', () => {
    const err = thrown(() => new ToolRegistry().register({ description: 'x', execute: () => 1 } as never));
    expect(err.message).toMatch(/call register\(name, descriptor\)/);
    expect(thrown(() => new ToolRegistry().registerMany([{ execute: () => 1 } as never])).message).toMatch(/item 0 has no name.*registerMany\(\{ my_tool: descriptor \}\)/);
  });

  test('an invalid registered name is refused with a suggestion', () => {
    const err = thrown(() => new ToolRegistry().register('current date', { description: 'x', execute: () => 1 }));
    expect(err.code).toBe('LOUSHO_INVALID_TOOL_DEFINITION');
    expect(err.message).toMatch(/the registered name 'current date' contains characters providers reject.*'current_date'/);
  });

  test('a descriptor with nothing to run is refused', () => {
    expect(thrown(() => new ToolRegistry().register('x', { description: 'nothing' })).message).toMatch(/it has nothing to run: add execute/);
    // A question tool's answer comes from a person, so it needs no execute.
    expect(() => new ToolRegistry().register('ask', { description: 'Ask', approvalKind: 'question' })).not.toThrow();
  });

  test('unregister removes a tool', () => {
    const tools = new ToolRegistry([lookupOrder]);
    expect(tools.unregister('lookup_order')).toBe(true);
    expect(tools.unregister('lookup_order')).toBe(false);
    expect(tools.names()).toEqual([]);
  });
});

describe('duplicate names', () => {
  test('the error names both registrations: where each came from, its label and its description', () => {
    const webSearch = defineTool({ name: 'search', displayName: 'Web search', description: 'Search the web', input: z.object({ q: z.string() }), execute: () => [] });
    const tools = new ToolRegistry().register(webSearch);
    const err = thrown(() => tools.register('search', { description: 'Search local files', execute: () => [] }));
    expect(err.code).toBe('LOUSHO_DUPLICATE_TOOL');
    expect(err.message).toContain(`Two tools are named 'search'`);
    expect(err.message).toContain('"Web search" described as "Search the web", from register(tool)');
    expect(err.message).toContain(`described as "Search local files", from register('search', descriptor)`);
    expect(err.message).toContain(`rename one (e.g. 'search_2')`);
  });

  test('within one registerMany call, nothing is registered', () => {
    const a = defineTool({ name: 'dup', description: 'First', input: z.object({}), execute: () => 1 });
    const b = defineTool({ name: 'dup', description: 'Second', input: z.object({}), execute: () => 2 });
    const tools = new ToolRegistry();
    const err = thrown(() => tools.registerMany([lookupOrder, a, b]));
    expect(err.message).toContain('"First", from registerMany([...]) item 1');
    expect(err.message).toContain('"Second", from registerMany([...]) item 2');
    expect(tools.names()).toEqual([]);
  });

  test('the same tool twice is called out as such', () => {
    const tools = new ToolRegistry().register(lookupOrder);
    expect(thrown(() => tools.register(lookupOrder)).message).toContain('It is the same descriptor registered twice.');
  });

  test('the suggested free name is not taken', () => {
    const tools = new ToolRegistry().registerMany({ x: { execute: () => 1 }, x_2: { execute: () => 1 } });
    expect(thrown(() => tools.register('x', { execute: () => 1 })).message).toContain("(e.g. 'x_3')");
  });
});

describe('toToolSpecs', () => {
  test('gives name, description and the input-side JSON Schema, in registration order', () => {
    const tools = new ToolRegistry().registerMany([
      lookupOrder,
      defineTool({ name: 'z3_tool', description: 'zod 3', input: z3.object({ n: z3.number().default(1) }), execute: () => 1 }),
      defineTool({ name: 'ark_tool', description: 'arktype', input: type({ s: 'string' }), execute: () => 1 }),
    ]);
    expect(tools.toToolSpecs()).toEqual([
      { name: 'lookup_order', description: 'Look up an order', parameters: { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] } },
      { name: 'z3_tool', description: 'zod 3', parameters: { type: 'object', properties: { n: { type: 'number', default: 1 } }, additionalProperties: false } },
      { name: 'ark_tool', description: 'arktype', parameters: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] } },
    ]);
  });

  test('a subset in the order asked, duplicates dropped; unknown names are an error listing what exists', () => {
    const tools = new ToolRegistry().registerMany({ a: { execute: () => 1 }, b: { execute: () => 1 }, c: { execute: () => 1 } });
    expect(tools.toToolSpecs(['c', 'a', 'c']).map((s) => s.name)).toEqual(['c', 'a']);
    const err = thrown(() => tools.toToolSpecs(['a', 'nope']));
    expect(err.code).toBe('LOUSHO_UNKNOWN_TOOL');
    expect(err.message).toBe("No tool is registered as 'nope'. Registered tools: a, b, c.");
  });

  test('parameters come from inputSchema, a ready parameters JSON Schema, or the legacy tool.parameters', () => {
    const jsonSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
    const tools = new ToolRegistry().registerMany({
      mcp_tool: { description: 'From MCP', parameters: jsonSchema, execute: () => 1 },
      legacy_zod: { tool: { description: 'ai v4 with zod 3', parameters: z3.object({ q: z3.string() }), execute: () => 1 } },
      legacy_json: { tool: { description: 'ai v4 with jsonSchema()', parameters: { jsonSchema: { type: 'object', properties: { id: { type: 'number' } } } }, execute: () => 1 } },
      legacy_plain: { tool: { description: 'plain JSON Schema', parameters: jsonSchema, execute: () => 1 } },
      no_schema: { description: 'No arguments', execute: () => 1 },
    });
    const specs = Object.fromEntries(tools.toToolSpecs().map((s) => [s.name, s]));
    expect(specs.mcp_tool!.parameters).toBe(jsonSchema);
    expect(specs.legacy_zod).toEqual({ name: 'legacy_zod', description: 'ai v4 with zod 3', parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'], additionalProperties: false } });
    expect(specs.legacy_json!.parameters).toEqual({ type: 'object', properties: { id: { type: 'number' } } });
    expect(specs.legacy_plain!.parameters).toBe(jsonSchema);
    expect(specs.no_schema!.parameters).toEqual({ type: 'object', properties: {} });
  });
});

describe('resolveToolDescriptor', () => {
  test('the legacy .tool is used only when neither inputSchema nor execute is set', async () => {
    const legacyExecute = async (args: unknown) => ({ legacy: args });
    const legacyOnly = resolveToolDescriptor({ tool: { description: 'old', parameters: z3.object({ a: z3.string() }), execute: legacyExecute } }, 'old');
    expect(legacyOnly.legacy).toBe(true);
    expect(legacyOnly.description).toBe('old');
    await expect(legacyOnly.execute!({ a: 'x' }, ctx)).resolves.toEqual({ legacy: { a: 'x' } });
    expect(legacyOnly.inputSchema).toBeDefined();

    const withExecute = resolveToolDescriptor({ description: 'new', execute: async () => 'new', tool: { description: 'old', parameters: z3.object({ a: z3.string() }), execute: legacyExecute } }, 'x');
    expect(withExecute.legacy).toBe(false);
    expect(withExecute.inputSchema).toBeUndefined();
    await expect(withExecute.execute!({}, ctx)).resolves.toBe('new');
    expect(withExecute.jsonSchema).toEqual({ type: 'object', properties: {} });

    // With inputSchema set, a legacy execute is ignored, and the registry says so.
    const err = thrown(() => resolveToolDescriptor({ inputSchema: z.object({ b: z.number() }), tool: { execute: legacyExecute } }, 'y'));
    expect(err.message).toBe("Tool 'y': its legacy tool.execute is ignored because inputSchema is set. Move the function to the descriptor: { inputSchema, execute }.");
    const withSchema = resolveToolDescriptor({ inputSchema: z.object({ b: z.number() }), approvalKind: 'question', tool: { execute: legacyExecute } }, 'y');
    expect(withSchema.legacy).toBe(false);
    expect(withSchema.execute).toBeUndefined();
  });

  test('a legacy tool receives the execution context as ai v4 options', async () => {
    let options: unknown;
    const resolved = resolveToolDescriptor({ tool: { execute: (_args: unknown, o: unknown) => ((options = o), 1) } }, 'x');
    const signal = new AbortController().signal;
    await resolved.execute!({}, { toolCallId: 'c9', messages: [], abortSignal: signal });
    expect(options).toEqual({ toolCallId: 'c9', messages: [], abortSignal: signal });
  });

  test('a legacy jsonSchema() wrapper with validate becomes the validation schema', async () => {
    const parameters = {
      jsonSchema: { type: 'object', properties: { n: { type: 'number' } } },
      validate: (value: unknown) =>
        typeof (value as { n?: unknown }).n === 'number' ? { success: true as const, value } : { success: false as const, error: new Error('n must be a number') },
    };
    const descriptor: ToolDescriptor = { tool: { parameters, execute: () => 1 } };
    await expect(validateToolArguments(descriptor, '{"n":"x"}', 'legacy')).resolves.toMatchObject({
      ok: false,
      error: { kind: 'validation', issues: [{ path: '', message: 'n must be a number' }] },
    });
    await expect(validateToolArguments(descriptor, '{"n":1}', 'legacy')).resolves.toEqual({ ok: true, args: { n: 1 } });
  });

  test('ready parameters win over conversion, so an unconvertible schema can still be used', () => {
    const schema = { '~standard': { version: 1 as const, vendor: 'valibot', validate: (v: unknown) => ({ value: v }) } };
    const resolved = resolveToolDescriptor({ inputSchema: schema, parameters: { type: 'object', properties: {} }, execute: () => 1 }, 'v');
    expect(resolved.inputSchema).toBe(schema);
    expect(resolved.jsonSchema).toEqual({ type: 'object', properties: {} });
    const err = thrown(() => resolveToolDescriptor({ inputSchema: schema, execute: () => 1 }, 'v'));
    expect(err.code).toBe('LOUSHO_INVALID_TOOL_DEFINITION');
    expect(err.message).toMatch(/^Tool 'v': its input schema cannot be described to the model: This valibot schema/);
  });

  test('keeps approval and sandbox settings', () => {
    const sandboxExecute = () => 1;
    const needsApproval = () => true;
    const resolved = resolveToolDescriptor({ name: 'q', displayName: 'Ask', approvalKind: 'question', requiresSandbox: true, sandboxExecute, needsApproval });
    expect(resolved).toMatchObject({ name: 'q', displayName: 'Ask', approvalKind: 'question', requiresSandbox: true, sandboxExecute, needsApproval });
  });

  test('bad field types are reported', () => {
    expect(thrown(() => resolveToolDescriptor({ execute: 'x' as never }, 'a')).message).toMatch(/execute must be a function/);
    expect(thrown(() => resolveToolDescriptor({ inputSchema: { type: 'object' } as never, execute: () => 1 }, 'a')).message).toMatch(/inputSchema must be a schema.*belongs in `parameters`/);
    expect(thrown(() => resolveToolDescriptor({ parameters: [] as never, execute: () => 1 }, 'a')).message).toMatch(/parameters must be a JSON Schema object/);
    expect(thrown(() => resolveToolDescriptor(null as never, 'a')).message).toMatch(/the descriptor must be an object/);
  });
});
