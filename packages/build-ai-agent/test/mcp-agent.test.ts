import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as root from '@lousho/build-ai-agent';
import { createAgent, type McpServers } from '@lousho/build-ai-agent';
import * as mcpEntry from '@lousho/build-ai-agent/mcp';
import * as toolsEntry from '@lousho/build-ai-agent/tools';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { createAgent as createCoreAgent, ERROR_CODES } from '@lousho/core';

const basicServer = resolve(dirname(fileURLToPath(import.meta.url)), '../../mcp/test/servers/basic-server.mjs');
const servers: McpServers = { basic: { command: process.execPath, args: [basicServer, 'stdio'] } };

const isRunning = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
async function waitUntil(check: () => boolean) {
  for (let i = 0; i < 250 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(check()).toBe(true);
}
const whoami = { toolCalls: [{ name: 'basic__whoami', args: {} }] };
const pidOf = (result: { toolCalls: { result: unknown }[] }) => (result.toolCalls[0]!.result as { pid: number }).pid;

describe('createAgent({ mcpServers }) from @lousho/build-ai-agent', { timeout: 30_000 }, () => {
  it('connects on the first run, reuses the connection, closes it on agent.close() (and connects again after)', async () => {
    const lines: string[] = [];
    const agent = createAgent({ provider: mockModel([whoami, 'one', whoami, 'two', whoami, 'three']), mcpServers: servers, mcpOptions: { logger: { warn: (line) => lines.push(line) } } });
    await new Promise((r) => setTimeout(r, 200));
    expect(lines).toEqual([]); // nothing started yet

    const first = pidOf(await agent.send('who?'));
    expect(lines).toContain('[mcp:basic] basic server ready');
    expect(pidOf(await agent.send('who again?'))).toBe(first);

    await agent.close();
    await waitUntil(() => !isRunning(first));
    const third = pidOf(await agent.send('and now?'));
    expect(third).not.toBe(first);
    await agent.close();
    await waitUntil(() => !isRunning(third));
  });

  it('mcpServers as a function of the run: the tools follow what it returns', async () => {
    const seen: string[][] = [];
    const provider = mockModel([(request) => (seen.push((request.tools ?? []).map((tool) => tool.name)), 'ok'), (request) => (seen.push((request.tools ?? []).map((tool) => tool.name)), 'ok')]);
    const agent = createAgent({ provider, mcpServers: ({ metadata }) => (metadata?.tools === 'mcp' ? servers : {}) });
    try {
      await agent.send('with', { metadata: { tools: 'mcp' } });
      await agent.send('without');
      expect(seen[0]).toContain('basic__echo');
      expect(seen[1]).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it("approvals apply to MCP tools by name pattern: a permission rule on 'basic__*' pauses the call", async () => {
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'basic__add', args: { a: 1, b: 2 } }] }, 'three']),
      mcpServers: servers,
      permissions: [{ tool: 'basic__*', decision: 'ask' }],
    });
    try {
      const paused = await agent.send('add');
      expect(paused).toMatchObject({ finishReason: 'awaiting-approval', pendingApproval: { toolName: 'basic__add', args: { a: 1, b: 2 } } });
      const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
      expect(done.toolCalls.at(-1)).toMatchObject({ toolName: 'basic__add', result: { sum: 3 } });
    } finally {
      await agent.close();
    }
  });

  it('a server that cannot start fails the run with the connect error, and the next run tries again', async () => {
    const agent = createAgent({ provider: mockModel(['never']), mcpServers: { gone: { command: 'lousho-no-such-command-xyz' } } });
    await expect(agent.send('go')).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED, message: expect.stringContaining("MCP server 'gone'") });
    await expect(agent.send('go')).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED });
    await agent.close();
  });

  it("@lousho/core's createAgent refuses mcpServers and says where MCP support comes from", () => {
    expect(() => createCoreAgent({ provider: mockModel(['x']), mcpServers: servers })).toThrow(/@lousho\/build-ai-agent/);
  });

  it('connectMcp, loadMcpTools are exported from the root, /tools and /mcp', () => {
    for (const entry of [root, toolsEntry, mcpEntry] as Record<string, unknown>[]) {
      expect(typeof entry.connectMcp).toBe('function');
      expect(typeof entry.loadMcpTools).toBe('function');
    }
    expect(typeof mcpEntry.jsonSchemaToZod).toBe('function');
    expect(typeof toolsEntry.defineTool).toBe('function');
    expect(typeof toolsEntry.createTodoTools).toBe('function');
  });
});
