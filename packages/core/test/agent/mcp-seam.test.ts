import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ERROR_CODES, type McpConnector, type McpServers, type ToolDescriptor } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

/*
 * The seam only: core's createAgent resolves `mcpServers` per run and merges what its connector
 * returns. The real connector (@lousho/mcp, real servers) is tested in packages/mcp and, wired
 * through @lousho/build-ai-agent, in that package's tests.
 */

function recordingConnector() {
  const log: string[] = [];
  const connector: McpConnector = (options) => {
    log.push(`connector timeoutMs=${String(options.timeoutMs)}`);
    return {
      async tools(servers: McpServers) {
        log.push(`tools ${Object.keys(servers).join(',')}`);
        const tools: Record<string, ToolDescriptor> = {};
        for (const name of Object.keys(servers)) {
          tools[`${name}__echo`] = defineTool({ name: `${name}__echo`, description: 'echo', input: z.object({ text: z.string() }), execute: async ({ text }) => `${name}:${text}` });
        }
        return tools;
      },
      async close() {
        log.push('close');
      },
    };
  };
  return { connector, log };
}

describe('mcpServers in core', () => {
  it("core's own createAgent refuses mcpServers with a code saying where MCP support comes from", () => {
    const create = () => createAgent({ provider: mockModel(['hi']), mcpServers: { notes: { command: 'node' } } });
    expect(create).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_MCP_UNAVAILABLE, message: expect.stringContaining('@lousho/build-ai-agent') }));
    // A function form is refused the same way, at creation, not silently on some later run.
    expect(() => createAgent({ provider: mockModel(['hi']), mcpServers: () => ({}) })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_MCP_UNAVAILABLE }));
    expect(() => createAgent({ provider: mockModel(['hi']), mcpServers: 'notes' as never, mcpConnector: recordingConnector().connector })).toThrow(
      expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG }),
    );
  });

  it('connects on the first run (not at creation), reuses the source, closes on agent.close()', async () => {
    const { connector, log } = recordingConnector();
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'notes__echo', args: { text: 'a' } }] }, 'one', 'two']),
      mcpServers: { notes: { command: 'node' } },
      mcpOptions: { timeoutMs: 5 },
      mcpConnector: connector,
    });
    expect(log).toEqual([]);
    const first = await agent.send('go');
    expect(first.toolCalls[0]).toMatchObject({ toolName: 'notes__echo', result: 'notes:a' });
    await agent.send('again');
    expect(log).toEqual(['connector timeoutMs=5', 'tools notes', 'tools notes']);
    await agent.close();
    expect(log.at(-1)).toBe('close');
  });

  it('mcpServers as a function of the run, and a name clash with an own tool is refused', async () => {
    const { connector, log } = recordingConnector();
    const agent = createAgent({
      provider: mockModel(['a', 'b']),
      mcpServers: ({ metadata }): McpServers => (metadata?.role === 'admin' ? { admin: { url: 'http://127.0.0.1:1/mcp' } } : {}),
      mcpConnector: connector,
    });
    await agent.send('x', { metadata: { role: 'admin' } });
    await agent.send('y');
    expect(log).toEqual(['connector timeoutMs=undefined', 'tools admin']);

    const own = defineTool({ name: 'notes__echo', description: 'mine', input: z.object({}), execute: async () => 'x' });
    const clash = createAgent({ provider: mockModel(['a']), tools: [own], mcpServers: { notes: { command: 'node' } }, mcpConnector: recordingConnector().connector });
    await expect(clash.send('go')).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_DUPLICATE_TOOL });
  });

  it('a throwing mcpServers function fails the run with LOUSHO_CONFIG_RESOLVER_FAILED naming the field', async () => {
    const agent = createAgent({
      provider: mockModel(['a']),
      mcpServers: () => {
        throw new Error('no tenant');
      },
      mcpConnector: recordingConnector().connector,
    });
    await expect(agent.send('go')).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_CONFIG_RESOLVER_FAILED, field: 'mcpServers' });
  });
});
