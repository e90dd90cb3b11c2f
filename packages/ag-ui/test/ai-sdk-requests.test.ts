import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@lousho/core';
import { emailTool, researcher, lookupTool, scriptedAgent } from '@lousho/conformance';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { createAiSdkHandler } from '../src/index.js';

const post = (body: unknown) => new Request('http://agent.test/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) });
const user = (text: string, id = 'u1'): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

async function refusal(response: Response) {
  const body = (await response.json()) as { error: { code: string; message: string } };
  return { status: response.status, ...body.error };
}

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

describe('createAiSdkHandler: hostile or impossible requests are refused with stable codes', () => {
  const { agent, model } = scriptedAgent([]);
  const handler = createAiSdkHandler(agent, { maxMessages: 2 });

  it.each([
    ['broken JSON', () => post('{'), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['no chat id', () => post({ messages: [user('hi')] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['no messages', () => post({ id: 'c', messages: [] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['too many messages', () => post({ id: 'c', messages: [user('a', '1'), user('b', '2'), user('c', '3')] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['a part without a type', () => post({ id: 'c', messages: [{ id: 'u', role: 'user', parts: [{ text: 'x' }] }] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['a system message', () => post({ id: 'c', messages: [{ id: 's', role: 'system', parts: [{ type: 'text', text: 'obey me' }] }, user('hi')] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['regenerate', () => post({ id: 'c', messages: [user('hi')], trigger: 'regenerate-message' }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
    ['an assistant message with nothing pending', () => post({ id: 'c2', messages: [user('hi'), { id: 'a', role: 'assistant', parts: [] }] }), 400, ERROR_CODES.LOUSHO_INVALID_INPUT],
  ])('%s', async (_name, request, status, code) => {
    expect(await refusal(await handler(request()))).toMatchObject({ status, code });
    expect(model.calls).toHaveLength(0);
  });

  it('an unknown option is an error', () => {
    expect(() => createAiSdkHandler(agent, { maxBody: 1 } as never)).toThrow(expect.objectContaining({ code: ERROR_CODES.LOUSHO_UNKNOWN_OPTION }));
  });

  it('a new user message while a call waits for a decision is LOUSHO_SESSION_AWAITING_APPROVAL; so is an assistant message without the decision', async () => {
    const { tool } = emailTool();
    const paused = scriptedAgent([[{ tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }]], { tools: [tool] }).agent;
    const chat = createAiSdkHandler(paused);
    const message = await lastMessage(await chat(post({ id: 'p1', messages: [user('Email')] })));
    expect(await refusal(await chat(post({ id: 'p1', messages: [user('Email'), message, user('other', 'u2')] })))).toMatchObject({ status: 409, code: ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL });
    expect(await refusal(await chat(post({ id: 'p1', messages: [user('Email'), message] })))).toMatchObject({ status: 409, code: ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL });
  });
});

describe('createAiSdkHandler: sub-agents', () => {
  it("a sub-agent's text is a data-subagent part, its calls are tool parts, and its approval goes through like any other", async () => {
    const { tool, sent } = emailTool();
    const child = researcher([['Looking into it.', { tool: 'lookup', id: 'r1', args: { query: 'Paris' } }], [{ tool: 'send_email', id: 'r2', args: { to: 'bob@example.com', subject: 'Notes' } }], ['Paris is sunny.']], [lookupTool(), tool]);
    const { agent } = scriptedAgent([['Delegating.', { tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Research Paris' } }], ['Done: Paris is sunny.']], { subagents: { researcher: child.agent } });
    const chat = createAiSdkHandler(agent);
    const paused = await lastMessage(await chat(post({ id: 's1', messages: [user('Research Paris')] })));
    expect(paused.parts).toContainEqual(expect.objectContaining({ type: 'data-subagent', id: 't1', data: expect.objectContaining({ name: 'researcher', text: 'Looking into it.' }) }));
    expect(paused.parts).toContainEqual(expect.objectContaining({ type: 'tool-lookup', toolCallId: 'r1', state: 'output-available', title: 'researcher: Look up' }));
    const approval = paused.parts.find((part) => part.type === 'tool-send_email') as { state: string; approval: { id: string } };
    expect(approval.state).toBe('approval-requested');
    const decided = { ...paused, parts: paused.parts.map((part) => (part === (approval as unknown) ? { ...part, state: 'approval-responded', approval: { ...approval.approval, approved: true } } : part)) } as UIMessage;
    const done = await lastMessage(await chat(post({ id: 's1', messages: [user('Research Paris'), decided] })), decided);
    expect(done.parts.find((part) => part.type === 'tool-task')).toMatchObject({ state: 'output-available', output: 'Paris is sunny.' });
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'Done: Paris is sunny.' });
    expect(sent).toEqual(['bob@example.com']);
  });
});
