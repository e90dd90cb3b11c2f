import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveMcp } from '@lousho/build-ai-agent/mcp';
import { createDemoAgent, createDemoModel, type DemoAgent } from '@lousho/demo-agent';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitRequest, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { OFFLINE_MODEL_INFO } from '../src/model.js';
import { createDemoServer, MCP_PATH } from '../src/server.js';

// The demo agent (offline demo model) served over MCP and driven by the official SDK's client:
// Streamable HTTP at /api/mcp beside the agent's own handler, and stdio through `lousho mcp serve`.

let agent: DemoAgent;
let server: Server;
let origin: string;
const clients: Client[] = [];

beforeAll(async () => {
  agent = createDemoAgent({ provider: createDemoModel({ charDelayMs: 0 }), toolDelayScale: 0 });
  server = createDemoServer({ agent, model: OFFLINE_MODEL_INFO, apps: [], mcp: serveMcp(agent, { toolName: 'ask_lousho_demo' }), onError: () => {} });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

type Answer = (request: ElicitRequest['params']) => ElicitResult;

async function connected(transport: StdioClientTransport | StreamableHTTPClientTransport, answer?: Answer): Promise<Client> {
  const client = new Client({ name: 'demo-test', version: '1.0.0' }, answer ? { capabilities: { elicitation: { form: {} } } } : {});
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request.params));
  await client.connect(transport);
  clients.push(client);
  return client;
}

const overHttp = (answer?: Answer) => connected(new StreamableHTTPClientTransport(new URL(MCP_PATH, origin)), answer);
const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

async function ask(client: Client, prompt: string): Promise<{ result: CallToolResult; progress: string[] }> {
  const progress: string[] = [];
  const result = (await client.callTool({ name: 'ask_lousho_demo', arguments: { prompt } }, undefined, { onprogress: (p) => void progress.push(p.message ?? '') })) as CallToolResult;
  return { result, progress };
}

describe('the demo agent over Streamable HTTP (/api/mcp)', () => {
  it('answers a research prompt, with the tool’s progress as MCP progress notifications', async () => {
    const client = await overHttp();
    const { result, progress } = await ask(client, 'Research the history of the bicycle');
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('the history of the bicycle');
    expect(progress).toEqual(
      expect.arrayContaining([
        'Calling Research',
        'research_topic: Searching for sources on the history of the bicycle',
        'research_topic: Reading 3 sources',
        'research_topic: Writing up the findings',
        'research_topic done',
      ]),
    );
  });

  it('asks the email approval through elicitation, sends once approved, and the session shows beside it at /api/agent', async () => {
    const asked: string[] = [];
    const client = await overHttp((params) => {
      asked.push(params.message);
      return { action: 'accept', content: { approved: true } };
    });
    const sentBefore = agent.outbox.length;
    const { result } = await ask(client, 'Send an email to bob@example.com about the launch');
    expect(asked).toEqual([expect.stringMatching(/^Allow Send email \(send_email\) to run with \{"to":"bob@example\.com"/)]);
    expect(agent.outbox.length).toBe(sentBefore + 1);
    const sent = agent.outbox.at(-1)!;
    expect(textOf(result)).toContain(sent.messageId);
    // The MCP call's Lousho session is an ordinary session of the agent's HTTP handler.
    const ids = (await agent.sessions.list!({})).sessions.map((s) => s.id).filter((id) => id.startsWith('mcp-'));
    const views = await Promise.all(ids.map(async (id) => (await fetch(`${origin}/api/agent/sessions/${id}`)).json() as Promise<{ messages: { content: unknown }[] }>));
    expect(views.some((view) => JSON.stringify(view.messages).includes(sent.messageId))).toBe(true);
  });

  it('asks the agent’s question through elicitation and builds on the answer', async () => {
    const client = await overHttp((params) => {
      expect(params.message).toBe('Where would you like to go?');
      return { action: 'accept', content: { answer: 'Lisbon' } };
    });
    const { result } = await ask(client, 'Help me plan a trip');
    expect(textOf(result)).toContain('Lisbon it is!');
  });

  it('refuses the email approval for a client without elicitation: a clear error, nothing sent', async () => {
    const client = await overHttp();
    const sentBefore = agent.outbox.length;
    const { result } = await ask(client, 'Send an email to eve@example.com');
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: { code: 'LOUSHO_MCP_ELICITATION_UNSUPPORTED', message: expect.stringContaining('approve Send email') } });
    expect(agent.outbox.length).toBe(sentBefore);
  });
});

describe('the demo agent over MCP: hostile arguments', () => {
  it('answers a bad prompt argument with an error result and a stable code, and nothing runs', async () => {
    const client = await overHttp();
    const before = (await agent.sessions.list!({})).sessions.length;
    const result = (await client.callTool({ name: 'ask_lousho_demo', arguments: { prompt: ['not', 'text'] } })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({ error: { code: 'LOUSHO_INVALID_INPUT', message: 'Invalid arguments: "prompt" must be a string, got object.' } });
    expect((await agent.sessions.list!({})).sessions.length).toBe(before);
  });
});

describe('the demo agent over stdio (lousho mcp serve)', () => {
  it('serves the demo agent module; a rejection through elicitation reaches the agent with its note', async () => {
    const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
    const bin = fileURLToPath(new URL('../../../packages/build-ai-agent/src/bin.ts', import.meta.url));
    const module = fileURLToPath(new URL('../src/mcp-agent.ts', import.meta.url));
    const transport = new StdioClientTransport({
      command: tsx,
      args: ['--conditions=@lousho/source', bin, 'mcp', 'serve', module],
      env: { PATH: process.env['PATH'] ?? '', DEMO_INSTANT: '1' },
      stderr: 'pipe',
    });
    const client = await connected(transport, () => ({ action: 'accept', content: { approved: false, note: 'Not today' } }));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ask_lousho_demo']);
    const { result, progress } = await ask(client, 'Send an email to bob@example.com');
    expect(textOf(result)).toBe('OK, I did not send the email to bob@example.com: you rejected it with the note "Not today".');
    expect(progress).toContain('Waiting for approval of Send email');
  }, 60_000);
});
