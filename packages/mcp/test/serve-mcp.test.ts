import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, ERROR_CODES } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { serveMcp, type McpAgentServer } from '../src/index.js';
import { failureOf } from './helpers.js';

// serveMcp() against the official SDK's client, in memory and over Streamable HTTP (the Fetch
// handler itself, called by the client's own transport). The demo agent's end-to-end tests,
// stdio through `lousho mcp serve` included, are in apps/demo-server/test/mcp-serve.test.ts.

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((one) => one.close()));
});

function payAgent(responses: Parameters<typeof mockModel>[0]) {
  const paid: number[] = [];
  const pay = defineTool({
    name: 'pay',
    description: 'Pays an amount',
    input: z.object({ amount: z.number() }),
    needsApproval: true,
    execute: async ({ amount }) => {
      paid.push(amount);
      return `paid ${amount}`;
    },
  });
  const agent = createAgent({ name: 'payer', description: 'Pays bills.', provider: mockModel(responses), tools: [pay] });
  return { agent, paid, pay };
}

type Answer = (message: string) => ElicitResult;

async function inMemoryClient(server: McpAgentServer, answer?: Answer): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' }, answer ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params.message));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  await client.connect(clientSide);
  opened.push(client, server);
  return client;
}

async function httpClient(server: McpAgentServer, token: string): Promise<Client> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('http://mcp.test/mcp'), {
    fetch: (url, init) => server.fetch(new Request(url, init)),
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  opened.push(client, server);
  return client;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;
const codeOf = (result: unknown) => ((result as CallToolResult).structuredContent as { error?: { code: string } } | undefined)?.error?.code;

describe('serveMcp: the agent as a tool', () => {
  it('lists the agent tool with a prompt argument and answers with the final text, sending progress', async () => {
    const { agent } = payAgent(['Hello from the agent']);
    const client = await inMemoryClient(serveMcp(agent));
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['payer']);
    expect(tools[0]!.description).toBe('Pays bills.');
    expect(tools[0]!.inputSchema).toMatchObject({ properties: { prompt: { type: 'string' } }, required: ['prompt'] });
    const progress: string[] = [];
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'hi' } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toBe('Hello from the agent');
    expect(progress).toEqual(['Started', 'Thinking (step 1)', 'Writing']);
  });

  it('continues one Lousho session per MCP connection (sessions: connection), a new one per call with sessions: call', async () => {
    for (const [sessions, expected] of [['connection', 1], ['call', 2]] as const) {
      const { agent } = payAgent(['one', 'two']);
      const client = await inMemoryClient(serveMcp(agent, { sessions }));
      await client.callTool({ name: 'payer', arguments: { prompt: 'a' } });
      await client.callTool({ name: 'payer', arguments: { prompt: 'b' } });
      const ids = new Set((await agent.sessions.list!({})).sessions.map((s) => s.id));
      expect(ids.size).toBe(expected);
      for (const id of ids) expect(id).toMatch(/^mcp-/);
    }
  });

  it('answers bad prompt arguments with an error result and a stable code, without running the agent', async () => {
    const { agent } = payAgent([]);
    const client = await inMemoryClient(serveMcp(agent, { maxPromptLength: 10 }));
    for (const [args, says] of [
      [{}, '"prompt" must be a string, got nothing'],
      [{ prompt: 42 }, '"prompt" must be a string, got number'],
      [{ prompt: '   ' }, '"prompt" is empty'],
      [{ prompt: 'x'.repeat(11) }, 'longer than 10 characters'],
      [{ prompt: 'hi', extra: 1 }, 'unknown argument "extra"'],
    ] as const) {
      const result = await client.callTool({ name: 'payer', arguments: args });
      expect(result.isError).toBe(true);
      expect(codeOf(result)).toBe(ERROR_CODES.LOUSHO_INVALID_INPUT);
      expect(textOf(result)).toContain(says);
    }
    expect((await agent.sessions.list!({})).sessions).toEqual([]);
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool: "nope"/);
  });

  it('asks an approval through elicitation and goes on with the decision', async () => {
    const { agent, paid } = payAgent([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Paid 5.']);
    const asked: string[] = [];
    const client = await inMemoryClient(serveMcp(agent), (message) => {
      asked.push(message);
      return { action: 'accept', content: { approved: true } };
    });
    const progress: string[] = [];
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'pay 5' } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    expect(textOf(result)).toBe('Paid 5.');
    expect(paid).toEqual([5]);
    expect(asked).toEqual(['Allow pay (pay) to run with {"amount":5}?']);
    expect(progress).toContain('Waiting for approval of pay');
    expect(progress).toContain('Going on');
  });

  it('an elicitation the client fails rejects the approval: an error result, and the session goes on', async () => {
    const { agent, paid } = payAgent([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Not paid.', 'Next answer']);
    let calls = 0;
    const client = await inMemoryClient(serveMcp(agent), () => {
      calls += 1;
      throw new Error('the dialog crashed');
    });
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'pay 5' } });
    expect(codeOf(result)).toBe(ERROR_CODES.LOUSHO_MCP_CALL_FAILED);
    expect(textOf(result)).toMatch(/did not answer the request for a person \(.*the dialog crashed\)/);
    expect(calls).toBe(1);
    expect(paid).toEqual([]);
    expect(await agent.approvals.list()).toEqual([]);
    expect(textOf(await client.callTool({ name: 'payer', arguments: { prompt: 'hi' } }))).toBe('Next answer');
  });

  it('a declined elicitation rejects the call; the agent reads the rejection', async () => {
    const { agent, paid } = payAgent([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'I did not pay.']);
    const client = await inMemoryClient(serveMcp(agent), () => ({ action: 'decline' }));
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'pay 5' } });
    expect(textOf(result)).toBe('I did not pay.');
    expect(paid).toEqual([]);
  });

  it('refuses an approval when the client declared no elicitation, with a stable code, and leaves no session waiting', async () => {
    const { agent, paid } = payAgent([{ toolCalls: [{ name: 'pay', args: { amount: 5 } }] }, 'Not paid.', 'Hello again']);
    const client = await inMemoryClient(serveMcp(agent));
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'pay 5' } });
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toBe(ERROR_CODES.LOUSHO_MCP_ELICITATION_UNSUPPORTED);
    expect(textOf(result)).toMatch(/needs a person to approve pay.*cannot ask one/);
    expect(paid).toEqual([]);
    expect(await agent.approvals.list()).toEqual([]);
    // The session goes on: the next call in the connection is answered.
    expect(textOf(await client.callTool({ name: 'payer', arguments: { prompt: 'hi' } }))).toBe('Hello again');
  });

  it('stops asking past maxElicitations: the call ends with LOUSHO_LIMIT_EXCEEDED and the last approval is rejected', async () => {
    const { agent, paid } = payAgent([{ toolCalls: [{ name: 'pay', args: { amount: 1 } }] }, { toolCalls: [{ name: 'pay', args: { amount: 2 } }] }, 'Only one paid.']);
    let asked = 0;
    const client = await inMemoryClient(serveMcp(agent, { maxElicitations: 1 }), () => {
      asked += 1;
      return { action: 'accept', content: { approved: true } };
    });
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'pay twice' } });
    expect(codeOf(result)).toBe(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED);
    expect(asked).toBe(1);
    expect(paid).toEqual([1]);
    expect(await agent.approvals.list()).toEqual([]);
  });

  it('a client cancelling the request stops the run (the tool sees its abort signal)', async () => {
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const wait = defineTool({
      name: 'wait',
      description: 'Waits until stopped',
      input: z.object({}),
      execute: (_args, ctx) =>
        new Promise((_resolve, reject) => {
          started();
          ctx.abortSignal?.addEventListener('abort', () => {
            aborted();
            reject(new Error('stopped'));
          });
        }),
    });
    const agent = createAgent({ name: 'waiter', provider: mockModel([{ toolCalls: [{ name: 'wait', args: {} }] }, 'never']), tools: [wait] });
    const client = await inMemoryClient(serveMcp(agent));
    const controller = new AbortController();
    const call = client.callTool({ name: 'waiter', arguments: { prompt: 'wait' } }, undefined, { signal: controller.signal });
    await running;
    controller.abort();
    await expect(call).rejects.toThrow();
    await sawAbort;
  });

  it('reports a failing run as an error result with its code and no stack', async () => {
    const failing = createAgent({ name: 'failing', provider: mockModel([]) });
    const client = await inMemoryClient(serveMcp(failing));
    const result = await client.callTool({ name: 'failing', arguments: { prompt: 'hi' } });
    expect(result.isError).toBe(true);
    expect(codeOf(result)).toMatch(/^LOUSHO_/);
    expect(JSON.stringify(result)).not.toMatch(/\n\s+at |\.ts:\d+/);
  });
});

describe('serveMcp: the agent’s own tools', () => {
  it('serves listed tools next to the agent tool; needsApproval goes through elicitation', async () => {
    const { agent, paid, pay } = payAgent([]);
    const add = defineTool({ name: 'add', description: 'Adds', input: z.object({ a: z.number(), b: z.number() }), execute: async ({ a, b }) => ({ sum: a + b }) });
    const client = await inMemoryClient(serveMcp(agent, { tools: [add, pay] }), () => ({ action: 'accept', content: { approved: true } }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['payer', 'add', 'pay']);
    const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    expect(sum.structuredContent).toEqual({ sum: 5 });
    const bad = await client.callTool({ name: 'add', arguments: { a: 'two' } });
    expect(bad.isError).toBe(true);
    expect(codeOf(bad)).toBe(ERROR_CODES.LOUSHO_INVALID_TOOL_ARGUMENTS);
    expect(textOf(await client.callTool({ name: 'pay', arguments: { amount: 7 } }))).toBe('paid 7');
    expect(paid).toEqual([7]);
  });

  it('refuses a served tool that needs approval when the client cannot ask', async () => {
    const { agent, paid, pay } = payAgent([]);
    const client = await inMemoryClient(serveMcp(agent, { tools: { pay } }));
    const result = await client.callTool({ name: 'pay', arguments: { amount: 7 } });
    expect(codeOf(result)).toBe(ERROR_CODES.LOUSHO_MCP_ELICITATION_UNSUPPORTED);
    expect(paid).toEqual([]);
  });
});

describe('serveMcp: Streamable HTTP', () => {
  const authorize = (request: Request) => (request.headers.get('authorization') === 'Bearer good' ? 'alice' : null);

  it('serves the agent to an authorized client; its session belongs to the principal', async () => {
    const { agent } = payAgent(['Over HTTP']);
    const client = await httpClient(serveMcp(agent, { authorize }), 'good');
    const progress: string[] = [];
    const result = await client.callTool({ name: 'payer', arguments: { prompt: 'hi' } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') });
    expect(textOf(result)).toBe('Over HTTP');
    expect(progress).toContain('Started');
    const [session] = (await agent.sessions.list!({})).sessions;
    expect((await agent.sessions.load(session!.id))?.owner).toBe('alice');
  });

  it('refuses a request that authorize refuses with 401 and a stable code', async () => {
    const { agent } = payAgent([]);
    const refused = await failureOf(httpClient(serveMcp(agent, { authorize }), 'bad'));
    expect(refused.code).toBe(401);
    expect(refused.message).toContain('"code":"LOUSHO_UNAUTHORIZED"');
  });

  it('keeps MCP sessions to their principal, and bounds the body', async () => {
    const { agent } = payAgent([]);
    let who = 'alice';
    const server = serveMcp(agent, { authorize: () => who, maxMessageBytes: 2000 });
    const client = await httpClient(server, 'any');
    const sessionId = (client.transport as StreamableHTTPClientTransport).sessionId!;
    const list = (id: string) =>
      server.fetch(
        new Request('http://mcp.test/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list', params: {} }),
        }),
      );
    expect((await list(sessionId)).status).toBe(200);
    who = 'mallory';
    const stolen = await list(sessionId);
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ error: { data: { code: ERROR_CODES.LOUSHO_SESSION_NOT_FOUND } } });
    who = 'alice';
    const big = await failureOf(client.callTool({ name: 'payer', arguments: { prompt: 'x'.repeat(5000) } }));
    expect(big.code).toBe(413);
    expect(big.message).toContain('Payload Too Large');
  });
});

describe('serveMcp: options', () => {
  it('refuses unknown and malformed options', () => {
    const { agent } = payAgent([]);
    expect(() => serveMcp(agent, { prompt: 'x' } as never)).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_UNKNOWN_OPTION }));
    expect(() => serveMcp(agent, { toolName: 'has space' })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG }));
    expect(() => serveMcp(agent, { maxPromptLength: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG }));
    expect(() => serveMcp(agent, { sessions: 'forever' as never })).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG }));
  });
});
