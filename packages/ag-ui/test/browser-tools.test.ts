import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ERROR_CODES } from '@lousho/core';
import { scriptedAgent } from '@lousho/conformance';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { createAiSdkHandler } from '../src/index.js';
import { serveAgUi, type AgUiServer } from './support/server.js';
import { agUiClient, lastAssistantText, run } from './support/client.js';

// A tool without `execute` runs in the browser: over AG-UI its call is an interrupt the next run
// resumes with the result; over the AI SDK stream it is a tool part useChat's addToolOutput answers.
const timeZone = defineTool({
  name: 'time_zone',
  description: "The user's time zone, read in the browser",
  input: z.object({}),
  outputSchema: z.object({ timeZone: z.string().min(1) }),
});

const browserAgent = () => scriptedAgent([[{ tool: 'time_zone', id: 'tz1', args: {} }], ['You are in Europe/Paris.']], { tools: [timeZone] });

let server: AgUiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('AG-UI: a browser tool is an interrupt', () => {
  it('the run ends with a client_tool interrupt; a result of the wrong shape, or a decision, is refused and the call stays open; the result goes on with the run', async () => {
    const { agent, model } = browserAgent();
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const paused = await run(client, 'Where am I?');
    expect(paused.outcome).toBe('interrupt');
    const [interrupt] = paused.interrupts;
    expect(interrupt).toMatchObject({ reason: 'client_tool', toolCallId: 'tz1', responseSchema: expect.objectContaining({ oneOf: [{ required: ['result'] }, { required: ['error'] }] }) });

    const wrong = await run(client, undefined, [{ interruptId: interrupt!.id, status: 'resolved', payload: { result: { timeZone: '' } } }]);
    expect(wrong.outcome).toBe('error');
    const decision = await run(client, undefined, [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }]);
    expect(decision.outcome).toBe('error');
    expect(agent.sessions.get(client.threadId)!.pendingApproval).toMatchObject({ kind: 'client', toolCallId: 'tz1' });
    expect(model.calls).toHaveLength(1);

    await run(client, undefined, [{ interruptId: interrupt!.id, status: 'resolved', payload: { result: { timeZone: 'Europe/Paris' } } }]);
    expect(lastAssistantText(client)).toBe('You are in Europe/Paris.');
    expect(JSON.stringify(model.calls[1])).toContain('Europe/Paris');
  });

  it('a cancelled interrupt ends the call with an error the model reads', async () => {
    const { agent, model } = browserAgent();
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const paused = await run(client, 'Where am I?');
    await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'cancelled' }]);
    expect(JSON.stringify(model.calls[1])).toContain('The client cancelled the call.');
  });
});

describe('AI SDK UI stream: a browser tool is a tool part addToolOutput answers', () => {
  const post = (body: unknown) => new Request('http://agent.test/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Where am I?' }] };

  async function lastMessage(response: Response, message?: UIMessage): Promise<UIMessage> {
    const chunks = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
      new TransformStream({
        transform(result, controller) {
          if (!result.success) throw result.error;
          controller.enqueue(result.value as UIMessageChunk);
        },
      }),
    );
    let last: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: chunks, ...(message && { message }) })) last = structuredClone(snapshot);
    return last!;
  }

  const withOutput = (message: UIMessage, output: Record<string, unknown>): UIMessage =>
    ({ ...message, parts: message.parts.map((part) => ((part as { toolCallId?: string }).toolCallId === 'tz1' ? { ...part, ...output } : part)) }) as UIMessage;

  it('the call waits in input-available with no approval part; a result that fails the schema is refused; the result goes on in the same message', async () => {
    const { agent, model } = browserAgent();
    const chat = createAiSdkHandler(agent);
    const paused = await lastMessage(await chat(post({ id: 'b1', messages: [user] })));
    const part = paused.parts.find((p) => p.type === 'tool-time_zone');
    expect(part).toMatchObject({ state: 'input-available', toolCallId: 'tz1' });
    expect(paused.parts.some((p) => p.type === 'data-question')).toBe(false);

    const refused = await chat(post({ id: 'b1', messages: [user, withOutput(paused, { state: 'output-available', output: { timeZone: 3 } })] }));
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe(ERROR_CODES.LOUSHO_INVALID_TOOL_OUTPUT);
    expect(model.calls).toHaveLength(1);

    const answered = withOutput(paused, { state: 'output-available', output: { timeZone: 'Europe/Paris' } });
    const done = await lastMessage(await chat(post({ id: 'b1', messages: [user, answered] })), answered);
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'You are in Europe/Paris.' });
  });

  it('an output-error part sends the error to the model', async () => {
    const { agent, model } = browserAgent();
    const chat = createAiSdkHandler(agent);
    const paused = await lastMessage(await chat(post({ id: 'b2', messages: [user] })));
    const failed = withOutput(paused, { state: 'output-error', errorText: 'Permission denied by the page' });
    await lastMessage(await chat(post({ id: 'b2', messages: [user, failed] })), failed);
    expect(JSON.stringify(model.calls[1])).toContain('Permission denied by the page');
  });
});
