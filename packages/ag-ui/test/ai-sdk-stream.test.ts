import { afterEach, describe, expect, it } from 'vitest';
import { parseJsonEventStream, readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { emailTool, scriptedAgent } from '@lousho/conformance';
import { createAiSdkHandler } from '../src/index.js';

// The UI message stream read by the AI SDK's own reader: every chunk validated by `ai`'s schema,
// assembled by `readUIMessageStream` into the UIMessage a useChat front end holds.

async function read(response: Response, message?: UIMessage): Promise<{ chunks: UIMessageChunk[]; messages: UIMessage[] }> {
  expect(response.headers.get('x-vercel-ai-ui-message-stream')).toBe('v1');
  const chunks: UIMessageChunk[] = [];
  const parsed = parseJsonEventStream({ stream: response.body!, schema: uiMessageChunkSchema }).pipeThrough(
    new TransformStream({
      transform(result, controller) {
        if (!result.success) throw result.error;
        chunks.push(result.value as UIMessageChunk);
        controller.enqueue(result.value as UIMessageChunk);
      },
    }),
  );
  const messages: UIMessage[] = [];
  for await (const snapshot of readUIMessageStream({ stream: parsed, ...(message && { message }) })) messages.push(structuredClone(snapshot));
  return { chunks, messages };
}

const post = (body: unknown) => new Request('http://agent.test/chat', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('createAiSdkHandler: the AI SDK reads our stream', () => {
  it('text, a tool call that needs approval, then the approval response goes on in the same message', async () => {
    const { tool, sent } = emailTool();
    const { agent } = scriptedAgent([['Sending.', { tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }], ['Sent.']], { tools: [tool] });
    const handler = createAiSdkHandler(agent);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Email a@b.c' }] };
    const first = await read(await handler(post({ id: 'chat-1', messages: [user], trigger: 'submit-message' })));
    const paused = first.messages.at(-1)!;
    expect(paused.parts.map((part) => part.type)).toEqual(['step-start', 'text', 'tool-send_email']);
    expect(paused.parts[2]).toMatchObject({ toolCallId: 'c1', state: 'approval-requested', input: { to: 'a@b.c', subject: 'Hi' }, title: 'Send email', approval: { id: expect.any(String) } });
    expect(paused.metadata).toMatchObject({ lousho: { finishReason: 'awaiting-approval' } });
    expect(sent).toEqual([]);

    // What addToolApprovalResponse() leaves in the message, sent back.
    const decided = { ...paused, parts: paused.parts.map((part) => (part.type === 'tool-send_email' ? { ...part, state: 'approval-responded', approval: { ...(part as { approval: object }).approval, approved: true } } : part)) } as UIMessage;
    const second = await read(await handler(post({ id: 'chat-1', messages: [user, decided], trigger: 'submit-message' })), decided);
    const done = second.messages.at(-1)!;
    expect(done.id).toBe(paused.id);
    expect(done.parts.find((part) => part.type === 'tool-send_email')).toMatchObject({ state: 'output-available', output: { messageId: 'a@b.c:Hi' } });
    expect(done.parts.at(-1)).toMatchObject({ type: 'text', text: 'Sent.', state: 'done' });
    expect(done.metadata).toMatchObject({ lousho: { finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 10 } } });
    expect(second.chunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    expect(sent).toEqual(['a@b.c']);
  });

  it('a rejected call is output-denied; a provider error is an error chunk with its code, no stack', async () => {
    const { tool } = emailTool();
    const { agent } = scriptedAgent([[{ tool: 'send_email', id: 'c1', args: { to: 'a@b.c', subject: 'Hi' } }], ['Not sent.'], [new Error('provider down')]], { tools: [tool] });
    const handler = createAiSdkHandler(agent);
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Email' }] };
    const paused = (await read(await handler(post({ id: 'chat-2', messages: [user] })))).messages.at(-1)!;
    const rejected = { ...paused, parts: paused.parts.map((part) => (part.type === 'tool-send_email' ? { ...part, state: 'approval-responded', approval: { ...(part as { approval: object }).approval, approved: false, reason: 'no' } } : part)) } as UIMessage;
    const after = (await read(await handler(post({ id: 'chat-2', messages: [user, rejected] })), rejected)).messages.at(-1)!;
    expect(after.parts.find((part) => part.type === 'tool-send_email')).toMatchObject({ state: 'output-denied' });
    const failed = await read(await handler(post({ id: 'chat-2', messages: [user, after, { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'again' }] }] })));
    const error = failed.chunks.find((chunk) => chunk.type === 'error') as { errorText: string };
    expect(error.errorText).toMatch(/provider down.*\(LOUSHO_/);
    expect(error.errorText).not.toMatch(/\n\s+at /);
  });
});
