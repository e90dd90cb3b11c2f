import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EventType, HttpAgent, type RunAgentInput } from '@ag-ui/client';
import { createAgent, defineTool, type LLMProvider, type StreamChunk } from '@lousho/core';
import { emailTool, lookupTool, researcher, scriptedAgent } from '@lousho/conformance';
import { serveAgUi, type AgUiServer } from './support/server.js';
import { agUiClient, lastAssistantText, run } from './support/client.js';

let server: AgUiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A model that plays `turns` of raw stream chunks, one per call. */
function chunkModel(turns: StreamChunk[][]): LLMProvider {
  let call = 0;
  return {
    name: 'chunks',
    defaultModel: 'chunk-model',
    async *stream() {
      yield* turns[call++] ?? [];
    },
  };
}

/** An HttpAgent that asks for AG-UI's protobuf encoding. */
class ProtobufAgent extends HttpAgent {
  protected override requestInit(input: RunAgentInput): RequestInit {
    const init = super.requestInit(input);
    return { ...init, headers: { ...(init.headers as Record<string, string>), Accept: 'application/vnd.ag-ui.event+proto' } };
  }
}

describe('AG-UI wire: what our events become', () => {
  it('reasoning streams as a reasoning message, tool arguments as TOOL_CALL_ARGS pieces, then the result', async () => {
    const lookup = defineTool({ name: 'lookup', description: 'Looks up', input: z.object({ query: z.string() }), execute: async ({ query }) => ({ found: query }) });
    const agent = createAgent({
      provider: chunkModel([
        [
          { type: 'reasoning-delta', text: 'The user wants ' },
          { type: 'reasoning-delta', text: 'Paris.' },
          { type: 'text-delta', text: 'Looking.' },
          { type: 'tool-call-start', index: 0, id: 'c1', name: 'lookup' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '{"query":' },
          { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
          { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 3, completionTokens: 2 } },
        ],
        [{ type: 'text-delta', text: 'Found Paris.' }, { type: 'finish', finishReason: 'stop', usage: { promptTokens: 3, completionTokens: 2 } }],
      ]),
      tools: [lookup],
    });
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const record = await run(client, 'Where?');
    expect(record.outcome).toBe('success');
    const first = record.types.indexOf(EventType.REASONING_START);
    expect(record.types.slice(first, first + 5)).toEqual([EventType.REASONING_START, EventType.REASONING_MESSAGE_START, EventType.REASONING_MESSAGE_CONTENT, EventType.REASONING_MESSAGE_CONTENT, EventType.REASONING_MESSAGE_END]);
    expect(client.messages.find((message) => message.role === 'reasoning')).toMatchObject({ content: 'The user wants Paris.' });
    const args = record.events.filter((event) => event.type === EventType.TOOL_CALL_ARGS).map((event) => (event as unknown as { delta: string }).delta);
    expect(args).toEqual(['{"query":', '"Paris"}']);
    // The call belongs to the step's text message.
    expect(client.messages.find((message) => message.role === 'assistant' && message.content === 'Looking.')).toMatchObject({ toolCalls: [{ id: 'c1', function: { arguments: '{"query":"Paris"}' } }] });
    expect(client.messages.find((message) => message.role === 'tool')).toMatchObject({ toolCallId: 'c1', content: '{"found":"Paris"}' });
    expect(lastAssistantText(client)).toBe('Found Paris.');
    expect(record.types.filter((type) => type === EventType.STEP_STARTED)).toHaveLength(2);
  });

  it("a tool's progress is AG-UI state: STATE_DELTA under /progress, gone from the state once the call is done", async () => {
    const work = defineTool({
      name: 'work',
      description: 'Works',
      input: z.object({}),
      execute: async (_args, ctx) => {
        ctx.reportProgress?.({ percent: 50 });
        return 'done';
      },
    });
    const agent = createAgent({ provider: chunkModel([[{ type: 'tool-call', index: 0, id: 'w/1', name: 'work', arguments: '{}' }, { type: 'finish', finishReason: 'tool_calls' }], [{ type: 'text-delta', text: 'ok' }, { type: 'finish', finishReason: 'stop' }]]), tools: [work] });
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const record = await run(client, 'go');
    expect(record.events).toContainEqual(expect.objectContaining({ type: EventType.STATE_DELTA, delta: [{ op: 'add', path: '/progress/w~11', value: { percent: 50 } }] }));
    expect(client.state).toMatchObject({ status: 'idle', progress: {} });
  });

  it('protobuf when the Accept header asks for it: the same run, decoded by the client', async () => {
    const { tool } = emailTool();
    const { agent } = scriptedAgent([['Sending.', { tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }], ['Sent.']], { tools: [tool] });
    server = await serveAgUi(agent);
    const response = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/vnd.ag-ui.event+proto' }, body: JSON.stringify({ threadId: 'pb-probe', runId: 'r0', messages: [], tools: [], context: [] }) });
    expect(response.headers.get('content-type')).toBe('application/vnd.ag-ui.event+proto');
    await response.arrayBuffer();
    const client = new ProtobufAgent({ url: server.url, threadId: 'pb-thread' });
    const paused = await run(client, 'Send it');
    expect(paused.outcome).toBe('interrupt');
    await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    expect(lastAssistantText(client)).toBe('Sent.');
  });

  it("context and forwardedProps reach the agent's per-run config as ctx.metadata.agUi", async () => {
    const prompts: unknown[] = [];
    const provider: LLMProvider = {
      name: 'seen',
      defaultModel: 'seen-model',
      async *stream(options) {
        prompts.push(options.system);
        yield { type: 'text-delta', text: 'ok' };
        yield { type: 'finish', finishReason: 'stop' };
      },
    };
    const agent = createAgent({
      provider,
      instructions: (ctx) => {
        const agUi = ctx.metadata?.agUi as { context: { description: string; value: string }[]; forwardedProps: { plan?: string } };
        return `Plan ${agUi.forwardedProps.plan}. ${agUi.context.map((item) => `${item.description}: ${item.value}`).join('; ')}`;
      },
    });
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    client.addMessage({ id: 'u1', role: 'user', content: 'Hi' });
    await client.runAgent({ context: [{ description: 'page', value: '/billing' }], forwardedProps: { plan: 'pro' } });
    expect(prompts).toEqual([expect.stringContaining('Plan pro. page: /billing')]);
  });

  it('a thread the server has never seen takes the client history as the first turn', async () => {
    const { agent, model } = scriptedAgent([['Your name is Ann.']]);
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    client.addMessages([
      { id: 'u0', role: 'user', content: 'I am Ann.' },
      { id: 'a0', role: 'assistant', content: 'Hello Ann.' },
    ]);
    await run(client, 'What is my name?');
    expect(model.calls[0]!.map((message) => [message.role, message.content])).toEqual([
      ['user', 'I am Ann.'],
      ['assistant', 'Hello Ann.'],
      ['user', 'What is my name?'],
    ]);
    expect(lastAssistantText(client)).toBe('Your name is Ann.');
  });

  it('protobuf carries sub-agents, interrupts with their sub-agent, state deltas and CUSTOM events to the client whole', async () => {
    const { tool } = emailTool();
    const child = researcher([['Looking.', { tool: 'lookup', id: 'r1', args: { query: 'Paris' } }], [{ tool: 'send_email', id: 'r2', args: { to: 'a@b.c', subject: 'N' } }], ['Sunny.']], [lookupTool(), tool]);
    const { agent } = scriptedAgent([[{ tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Paris' } }], ['Done.']], { subagents: { researcher: child.agent } });
    server = await serveAgUi(agent);
    const client = new ProtobufAgent({ url: server.url, threadId: 'pb-subagent' });
    const paused = await run(client, 'Research');
    expect(paused.events).toContainEqual(expect.objectContaining({ type: EventType.SUBAGENT_STARTED, subagentRunId: 'subagent:t1', name: 'researcher', parentToolCallId: 't1' }));
    expect(paused.events).toContainEqual(expect.objectContaining({ type: EventType.SUBAGENT_FINISHED, subagentRunId: 'subagent:t1', outcome: expect.objectContaining({ type: 'suspended' }) }));
    expect(paused.interrupts).toEqual([expect.objectContaining({ subagentRunId: 'subagent:t1', toolCallId: 'r2', metadata: expect.objectContaining({ args: { to: 'a@b.c', subject: 'N' } }) })]);
    expect(client.messages).toContainEqual(expect.objectContaining({ role: 'assistant', content: 'Looking.', subagentRunId: 'subagent:t1' }));
    const done = await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    expect(done.events).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.approval.resolved' }));
    expect(lastAssistantText(client)).toBe('Done.');
  });
});
