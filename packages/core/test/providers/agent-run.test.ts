/**
 * A whole agent run — a tool call that needs approval, the approval, the final answer — through
 * each real provider against a local server speaking its wire format: in process, and through the
 * HTTP handler mounted on a Node server.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent } from '../../src/index.js';
import { createAgentHandler } from '../../src/http/index.js';
import { toNodeHandler } from '../../../node/src/node/index.js';
import { parseEventStream } from '@lousho/protocol';
import {
  AnthropicProvider,
  OllamaProvider,
  OpenAIProvider,
  OpenRouterProvider,
  type LLMProvider,
} from '@lousho/providers';
import { startFakeApi, type FakeApiServer, type RecordedRequest, type Reply } from '../../../providers/test/fake-api-server.js';
import { anthropicTextStream, anthropicToolStream, openaiTextStream, openaiToolCallStream } from '../../../providers/test/wire-fixtures.js';

interface WireCase {
  name: string;
  make(url: string): LLMProvider;
  toolCall(id: string, name: string, pieces: string[]): string[];
  text(pieces: string[]): string[];
  /** The tool results the request carries, in the provider's own format. */
  toolResults(body: any): { id: string; content: string; isError: boolean }[];
}

const openaiToolResults = (body: any) =>
  body.messages.filter((m: any) => m.role === 'tool').map((m: any) => ({ id: m.tool_call_id, content: m.content, isError: false }));

const CASES: WireCase[] = [
  {
    name: 'openai',
    make: (url) => new OpenAIProvider({ apiKey: 'sk-run-0000000000000000000', baseURL: `${url}/v1`, env: {} }),
    toolCall: openaiToolCallStream,
    text: (pieces) => openaiTextStream(pieces),
    toolResults: openaiToolResults,
  },
  {
    name: 'openrouter',
    make: (url) => new OpenRouterProvider({ apiKey: 'sk-or-run-00000000000000', baseURL: `${url}/api/v1`, env: {} }),
    toolCall: openaiToolCallStream,
    text: (pieces) => openaiTextStream(pieces),
    toolResults: openaiToolResults,
  },
  {
    name: 'ollama',
    make: (url) => new OllamaProvider({ host: url, model: 'llama3.2' }),
    toolCall: openaiToolCallStream,
    text: (pieces) => openaiTextStream(pieces),
    toolResults: openaiToolResults,
  },
  {
    name: 'anthropic',
    make: (url) => new AnthropicProvider({ apiKey: 'sk-ant-run-000000000000', baseURL: url, env: {} }),
    toolCall: (id, name, pieces) => anthropicToolStream(id, name, pieces, 'I will email Bob.'),
    text: anthropicTextStream,
    toolResults: (body) =>
      body.messages
        .filter((m: any) => m.role === 'user')
        .flatMap((m: any) => m.content)
        .filter((block: any) => block.type === 'tool_result')
        .map((block: any) => ({ id: block.tool_use_id, content: block.content, isError: block.is_error === true })),
  },
];

function emailTool() {
  const sent: string[] = [];
  const tool = defineTool({
    name: 'send_email',
    description: 'Send an email',
    input: z.object({ to: z.string(), subject: z.string() }),
    needsApproval: ({ to }) => !to.endsWith('@mycompany.com'),
    async execute({ to, subject }) {
      sent.push(to);
      return { messageId: `${to}:${subject}` };
    },
  });
  return { tool, sent };
}

/** The model: call send_email first; once a tool result is in the transcript, answer. */
function script(wire: WireCase): (request: RecordedRequest) => Reply {
  return (request) =>
    wire.toolResults(request.body).length === 0
      ? { sse: wire.toolCall('call_email_1', 'send_email', ['{"to": "bob@', 'example.com", ', '"subject": "Hi"}']) }
      : { sse: wire.text(['Email ', 'sent to Bob.']) };
}

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.map((s) => s.close()));
  servers = [];
});

async function fakeApi(wire: WireCase): Promise<FakeApiServer> {
  const api = await startFakeApi(script(wire));
  servers.push(api);
  return api;
}

describe.each(CASES)('a full agent run through $name', (wire) => {
  it('pauses for approval on the streamed tool call, runs it once approved, and answers', async () => {
    const api = await fakeApi(wire);
    const { tool, sent } = emailTool();
    const agent = createAgent({ provider: wire.make(api.url), tools: [tool], instructions: 'You send emails.' });

    const paused = await agent.send('Email Bob to say hi');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.approvalId).toEqual(expect.any(String));
    expect(sent).toEqual([]);
    const [pending] = await agent.approvals.list();
    expect(pending).toMatchObject({ toolCallId: 'call_email_1', toolName: 'send_email', args: { to: 'bob@example.com', subject: 'Hi' } });

    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(sent).toEqual(['bob@example.com']);
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Email sent to Bob.');
    // Usage came from the provider, not from an estimate.
    expect(done.usage.estimated).toBe(false);
    expect(done.usage.inputTokens).toBeGreaterThan(0);

    // The second request carried the call and its result in the provider's own format.
    expect(api.requests).toHaveLength(2);
    expect(wire.toolResults(api.requests[1]!.body)).toEqual([
      { id: 'call_email_1', content: JSON.stringify({ messageId: 'bob@example.com:Hi' }), isError: false },
    ]);
  });

  it('sends a rejection to the model as an error result', async () => {
    const api = await fakeApi(wire);
    const { tool, sent } = emailTool();
    const agent = createAgent({ provider: wire.make(api.url), tools: [tool] });
    const paused = await agent.send('Email Bob');
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: false, note: 'no externals' });
    expect(sent).toEqual([]);
    expect(done.text).toBe('Email sent to Bob.');
    const [result] = wire.toolResults(api.requests[1]!.body);
    expect(result!.content).toContain('no externals');
    if (wire.name === 'anthropic') expect(result!.isError).toBe(true);
  });

  it('does the same through the HTTP handler, streaming the events over SSE', async () => {
    const api = await fakeApi(wire);
    const { tool, sent } = emailTool();
    const agent = createAgent({ provider: wire.make(api.url), tools: [tool] });
    const app = createServer(toNodeHandler(createAgentHandler(agent, { keepAliveMs: 0 })));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    servers.push({
      close: () =>
        new Promise<void>((resolve) => {
          app.closeAllConnections();
          app.close(() => resolve());
        }),
    });
    const base = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
    const post = (path: string, body: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const events = async (response: Response) => {
      expect(response.status).toBe(200);
      const out: AgentStreamEvent[] = [];
      for await (const event of parseEventStream(response.body!)) out.push(event);
      return out;
    };

    const first = await events(await post('/sessions/s-1/messages', { input: 'Email Bob to say hi' }));
    const deltas = first.filter((e) => e.type === 'tool.input.delta').map((e) => (e as { delta: string }).delta);
    expect(deltas.join('')).toBe('{"to": "bob@example.com", "subject": "Hi"}');
    const requested = first.find((e) => e.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>;
    expect(requested.approval).toMatchObject({ toolName: 'send_email', args: { to: 'bob@example.com', subject: 'Hi' } });
    expect(first.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });

    const second = await events(await post(`/sessions/s-1/approvals/${requested.approval.approvalId}`, { approved: true }));
    const text = second.filter((e) => e.type === 'text.delta').map((e) => (e as { delta: string }).delta).join('');
    expect(text).toBe('Email sent to Bob.');
    // The wire's run.done leaves the reply out (lousho.v2): the deltas above carry it.
    expect(second.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(second.at(-1)).not.toHaveProperty('text');
    expect(sent).toEqual(['bob@example.com']);
  });
});

describe('provider failures inside a run', () => {
  it('end the run with an error that names the provider and status and hides the key', async () => {
    const key = 'sk-run-secret-9999999999999999';
    const api = await startFakeApi([{ status: 401, json: { error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request_error', code: 'invalid_api_key' } } }]);
    servers.push(api);
    const agent = createAgent({ provider: new OpenAIProvider({ apiKey: key, baseURL: `${api.url}/v1`, env: {} }) });
    const events: AgentStreamEvent[] = [];
    for await (const event of agent.stream('hi')) events.push(event);
    const error = events.find((e) => e.type === 'error') as Extract<AgentStreamEvent, { type: 'error' }>;
    expect(error.error.code).toBe('LOUSHO_PROVIDER_HTTP_ERROR');
    expect(error.error.message).toContain('OpenAI request failed with HTTP 401');
    expect(JSON.stringify(events)).not.toContain(key);
  });
});
