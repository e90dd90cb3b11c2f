import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createAgent, TOOL_NAME_PATTERN, type SkippedMcpTool, type ToolDescriptor } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { loadMcpTools } from '../src/index.js';
import { recordingLogger, serverCommand } from './helpers.js';

/*
 * loadMcpTools on a client the test connected itself, to a server with 100 tools whose schemas are
 * hostile (test/servers/hostile-server.mjs): one cannot be used and is skipped, the others load,
 * and their arguments are checked the way their schemas say.
 */
describe('a server with 100 tools of hostile schemas', () => {
  const client = new Client({ name: 'hostile-test', version: '1.0.0' });
  const logger = recordingLogger();
  const skipped: SkippedMcpTool[] = [];
  let tools: Record<string, ToolDescriptor>;

  beforeAll(async () => {
    await client.connect(new StdioClientTransport({ ...serverCommand('hostile-server.mjs'), stderr: 'pipe' }));
    tools = await loadMcpTools(client, 'hostile', { logger, onSkip: (tool) => skipped.push(tool) });
  });
  afterAll(() => client.close());

  /** Runs one call through an agent and returns what the server received, or the tool error. */
  async function call(name: string, args: unknown) {
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: `hostile__${name}`, args: args as Record<string, unknown> }] }, 'ok']), tools });
    const [record] = (await agent.send('go')).toolCalls;
    return record!.isError ? { error: record!.error } : { received: (record!.result as { arguments: unknown }).arguments };
  }

  it('skips exactly the unconvertible tool, says why (onSkip and logger), and loads the other 99', () => {
    expect(skipped).toEqual([{ name: 'not_an_object', server: 'hostile', reason: expect.stringContaining('tool arguments are always an object') }]);
    expect(logger.lines).toEqual([expect.stringMatching(/^MCP server 'hostile': tool 'not_an_object' was skipped: /)]);
    expect(Object.keys(tools)).toHaveLength(99);
  });

  it('every name is one providers accept; odd and long names are rewritten and stay distinct', () => {
    for (const name of Object.keys(tools)) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(tools['hostile__weird_name_with_dots_and_spaces']).toBeDefined();
    const long = Object.keys(tools).filter((name) => name.startsWith('hostile__aaaa'));
    expect(long).toHaveLength(1);
    expect(long[0]!.length).toBe(64);
  });

  it('mixed enums, type arrays and nullable anyOf are checked as their schemas say', async () => {
    expect(await call('mixed_enum', { v: { x: 1 } })).toEqual({ received: { v: { x: 1 } } });
    expect(await call('mixed_enum', { v: [2] })).toEqual({ received: { v: [2] } });
    expect((await call('mixed_enum', { v: 'b' })).error).toMatchObject({ kind: 'validation' });
    expect(await call('type_array', { v: null })).toEqual({ received: { v: null } });
    expect((await call('type_array', { v: 1.5 })).error).toMatchObject({ kind: 'validation' });
    expect(await call('nullable_anyof', { v: null })).toEqual({ received: { v: null } });
    expect((await call('nullable_anyof', { v: 'x' })).error).toMatchObject({ kind: 'validation' });
  });

  it('oneOf refuses a value two branches accept; allOf merges and fills defaults', async () => {
    expect(await call('oneof_overlap', { v: 2 })).toEqual({ received: { v: 2 } });
    expect((await call('oneof_overlap', { v: 7 })).error).toMatchObject({ kind: 'validation', message: expect.stringContaining('more than one') });
    expect(await call('allof_merge', { a: 'x' })).toEqual({ received: { a: 'x', b: 4 } });
    expect((await call('allof_merge', {})).error).toMatchObject({ kind: 'validation' });
  });

  it('recursive refs are checked at every depth; missing and remote refs accept anything; definitions resolve', async () => {
    expect(await call('recursive_ref', { tree: { value: 1, children: [{ value: 2, children: [{ value: 3, children: [] }] }] } })).toMatchObject({ received: expect.any(Object) });
    expect((await call('recursive_ref', { tree: { value: 1, children: [{ value: 2, children: [{ anything: true }] }] } })).error).toMatchObject({ kind: 'validation', issues: [{ path: 'tree.children.0.children.0.value' }] });
    expect((await call('recursive_ref', { tree: { children: [] } })).error).toMatchObject({ kind: 'validation' });
    expect(await call('root_ref', { self: { self: {} } })).toEqual({ received: { self: { self: {} } } });
    expect(await call('missing_ref', { v: [1, 'two'] })).toEqual({ received: { v: [1, 'two'] } });
    expect(await call('remote_ref', { v: 3 })).toEqual({ received: { v: 3 } });
    expect(await call('definitions_ref', { v: 'id-7' })).toEqual({ received: { v: 'id-7' } });
    expect((await call('definitions_ref', { v: '7' })).error).toMatchObject({ kind: 'validation' });
  });

  it('property names like constructor and __proto__ are plain keys', async () => {
    expect(await call('proto_keys', {})).toEqual({ received: {} });
    expect(await call('proto_keys', { constructor: 'c', toString: 1 })).toEqual({ received: { constructor: 'c', toString: 1 } });
    // What the server is sent keeps a `__proto__` key as a key (the SDK's server-side parsing drops
    // it again, so this is checked on the validated arguments, before they leave).
    const sent = JSON.parse('{"__proto__": "p", "constructor": "c"}');
    const parsed = await tools.hostile__proto_keys!.inputSchema!['~standard'].validate(sent);
    expect(JSON.stringify((parsed as { value: unknown }).value)).toBe('{"__proto__":"p","constructor":"c"}');
    const wrong = await tools.hostile__proto_keys!.inputSchema!['~standard'].validate(JSON.parse('{"__proto__": 5}'));
    expect((wrong as { issues?: unknown[] }).issues).toHaveLength(1);
    expect((await call('proto_keys', { toString: 'not a number' })).error).toMatchObject({ kind: 'validation' });
  });

  it('lengths count characters, a broken pattern is ignored, strict objects refuse extras', async () => {
    expect(await call('unicode_length', { v: '😀😀' })).toEqual({ received: { v: '😀😀' } });
    expect((await call('unicode_length', { v: '😀' })).error).toMatchObject({ kind: 'validation' });
    expect(await call('bad_pattern', { v: 'anything' })).toEqual({ received: { v: 'anything' } });
    expect((await call('strict_object', { a: 'x', b: 1 })).error).toMatchObject({ kind: 'validation' });
    expect((await call('typed_extras', { a: 'x' })).error).toMatchObject({ kind: 'validation' });
    expect(await call('draft4_exclusive', { v: 0.1 })).toEqual({ received: { v: 0.1 } });
    expect((await call('draft4_exclusive', { v: 0 })).error).toMatchObject({ kind: 'validation' });
  });

  it('huge, deep and exponential schemas load and still check what they can', async () => {
    expect(await call('wide_object', { p299: 300 })).toEqual({ received: { p299: 300 } });
    expect((await call('wide_object', { p299: 1 })).error).toMatchObject({ kind: 'validation' });
    expect(await call('huge_enum', { v: 'value-4999' })).toEqual({ received: { v: 'value-4999' } });
    expect(await call('deep_nesting', { next: { next: {} } })).toMatchObject({ received: expect.any(Object) });
    expect(await call('exponential_refs', { root: { left: { right: {} } } })).toMatchObject({ received: expect.any(Object) });
  });

  it('broken keywords are ignored instead of breaking the tool; the model sees the server schema', async () => {
    expect(await call('wrong_keyword_types', { any: 'thing' })).toEqual({ received: { any: 'thing' } });
    expect(await call('boolean_schemas', { yes: 1 })).toEqual({ received: { yes: 1 } });
    expect((await call('boolean_schemas', { no: 1 })).error).toMatchObject({ kind: 'validation' });
    expect(tools.hostile__unknown_keywords!.parameters).toMatchObject({ 'x-vendor': { whatever: true } });
  });

  it('an unknown content part type is kept as { type: "unknown", raw }', async () => {
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'hostile__plain_99', args: { n: 1 } }] }, 'ok']), tools });
    const [record] = (await agent.send('go')).toolCalls;
    expect(record!.result).toEqual({
      structuredContent: { name: 'plain_99', arguments: { n: 1 } },
      text: 'echo',
      content: [{ type: 'unknown', raw: { type: 'hologram', depth: 3 } }],
    });
  });
});
