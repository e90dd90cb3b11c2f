// @vitest-environment jsdom
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { act, renderHook, waitFor } from '@testing-library/react';
import { useChat } from '@ai-sdk/react';
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses, lastAssistantMessageIsCompleteWithToolCalls, type UIMessage } from 'ai';
import { z } from 'zod';
import { createAgent, defineTool, type LLMProvider, type StreamChunk } from '@lousho/core';
import { emailTool, scriptedAgent, waitTool } from '@lousho/conformance';
import { toNodeHandler } from '@lousho/node/node';
import { createAiSdkHandler, type AgUiAgent } from '../src/index.js';

// The AI SDK's own React hook, `useChat` (`@ai-sdk/react`, rendered with testing-library), against
// createAiSdkHandler on a real node:http server: an app's useChat front end, unchanged.

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(agent: AgUiAgent): Promise<string> {
  const listener = toNodeHandler(createAiSdkHandler(agent));
  server = createServer((req, res) => listener(req, res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
}

function chatHook(api: string) {
  return renderHook(() =>
    useChat({
      transport: new DefaultChatTransport({ api }),
      sendAutomaticallyWhen: (options) => lastAssistantMessageIsCompleteWithApprovalResponses(options) || lastAssistantMessageIsCompleteWithToolCalls(options),
    }),
  );
}

const textOf = (message: UIMessage | undefined) => (message?.parts ?? []).flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
const toolPart = (message: UIMessage | undefined, type: string) => message?.parts.find((part) => part.type === type) as (Record<string, unknown> & { toolCallId: string; state: string }) | undefined;

function chunkModel(turns: StreamChunk[][]): LLMProvider {
  let call = 0;
  return { name: 'chunks', defaultModel: 'chunk-model', async *stream() { yield* turns[call++] ?? []; } };
}

describe("the AI SDK's useChat against createAiSdkHandler", () => {
  it('streams the reply, pauses on a tool approval, and addToolApprovalResponse() finishes the same assistant message', async () => {
    const { tool, sent } = emailTool();
    const { agent } = scriptedAgent([['Sending ', 'it.', { tool: 'send_email', id: 'c1', args: { to: 'bob@example.com', subject: 'Friday' } }], ['Email sent.']], { tools: [tool] });
    const { result } = chatHook(await serve(agent));
    await act(() => result.current.sendMessage({ text: 'Email Bob about Friday' }));
    await waitFor(() => expect(toolPart(result.current.messages.at(-1), 'tool-send_email')?.state).toBe('approval-requested'));
    expect(result.current.status).toBe('ready');
    const paused = result.current.messages.at(-1)!;
    expect(textOf(paused)).toBe('Sending it.');
    expect(toolPart(paused, 'tool-send_email')).toMatchObject({ input: { to: 'bob@example.com', subject: 'Friday' }, title: 'Send email' });
    expect(sent).toEqual([]);

    const approvalId = (toolPart(paused, 'tool-send_email')!.approval as { id: string }).id;
    await act(async () => {
      await result.current.addToolApprovalResponse({ id: approvalId, approved: true });
    });
    await waitFor(() => expect(textOf(result.current.messages.at(-1))).toBe('Sending it.Email sent.'));
    await waitFor(() => expect(result.current.status).toBe('ready'));
    expect(result.current.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(toolPart(result.current.messages.at(-1), 'tool-send_email')).toMatchObject({ state: 'output-available', output: { messageId: 'bob@example.com:Friday' } });
    expect(result.current.messages.at(-1)!.metadata).toMatchObject({ lousho: { finishReason: 'stop' } });
    expect(result.current.error).toBeUndefined();
    expect(sent).toEqual(['bob@example.com']);
  });

  it('a question is a tool call the app answers with addToolOutput(); the answer is the result and the run goes on', async () => {
    const { agent, model } = scriptedAgent([[{ tool: 'ask_question', id: 'q1', args: { question: 'Which city?' } }], ['Paris it is.']], { askQuestion: true });
    const { result } = chatHook(await serve(agent));
    await act(() => result.current.sendMessage({ text: 'Plan a trip' }));
    await waitFor(() => expect(toolPart(result.current.messages.at(-1), 'tool-ask_question')?.state).toBe('input-available'));
    expect(result.current.messages.at(-1)!.parts).toContainEqual(expect.objectContaining({ type: 'data-question', data: expect.objectContaining({ toolCallId: 'q1', question: 'Which city?' }) }));
    await act(async () => {
      await result.current.addToolOutput({ tool: 'ask_question' as never, toolCallId: 'q1', output: 'Paris' as never });
    });
    await waitFor(() => expect(textOf(result.current.messages.at(-1))).toBe('Paris it is.'));
    expect(model.calls[1]!.find((message) => message.role === 'tool')?.content).toBe('Paris');
  });

  it('reasoning parts, streamed tool input, progress as a data part, and the finish', async () => {
    const work = defineTool({
      name: 'work',
      description: 'Works',
      input: z.object({ n: z.number() }),
      execute: async (_args, ctx) => {
        ctx.reportProgress?.({ percent: 50 });
        return { ok: true };
      },
    });
    const agent = createAgent({
      provider: chunkModel([
        [{ type: 'reasoning-delta', text: 'Think.' }, { type: 'tool-call-start', index: 0, id: 'w1', name: 'work' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '{"n":' }, { type: 'tool-call-delta', index: 0, argumentsDelta: '1}' }, { type: 'finish', finishReason: 'tool_calls' }],
        [{ type: 'text-delta', text: 'Done.' }, { type: 'finish', finishReason: 'stop' }],
      ]),
      tools: [work],
    });
    const { result } = chatHook(await serve(agent));
    await act(() => result.current.sendMessage({ text: 'go' }));
    await waitFor(() => expect(textOf(result.current.messages.at(-1))).toBe('Done.'));
    const parts = result.current.messages.at(-1)!.parts;
    expect(parts.map((part) => part.type)).toEqual(['step-start', 'reasoning', 'tool-work', 'data-tool-progress', 'step-start', 'text']);
    expect(parts[1]).toMatchObject({ text: 'Think.', state: 'done' });
    expect(parts[2]).toMatchObject({ state: 'output-available', input: { n: 1 }, output: { ok: true } });
    expect(parts[3]).toMatchObject({ id: 'w1', data: { toolName: 'work', progress: { percent: 50 } } });
  });

  it('stop() aborts the run on the server; the chat goes on', async () => {
    const { tool, started } = waitTool();
    const { agent } = scriptedAgent([['Working.', { tool: 'wait', id: 'w1' }], ['Ready again.']], { tools: [tool] });
    const { result } = chatHook(await serve(agent));
    // Outside act(): the send is still going when the stop comes, as a person's click would.
    const sending = result.current.sendMessage({ text: 'go' });
    await started.promise;
    await result.current.stop();
    await sending;
    await waitFor(() => expect(result.current.status).toBe('ready'));
    const chatId = result.current.id;
    await waitFor(() => expect(agent.sessions.get(chatId)?.status).not.toBe('running'));
    await act(() => result.current.sendMessage({ text: 'and now?' }));
    await waitFor(() => expect(textOf(result.current.messages.at(-1))).toBe('Ready again.'));
  });

  it('a server error reaches useChat as its error, with our code and no stack', async () => {
    const { agent } = scriptedAgent([[new Error('provider down')]]);
    const { result } = chatHook(await serve(agent));
    await act(() => result.current.sendMessage({ text: 'Hi' }));
    await waitFor(() => expect(result.current.status).toBe('error'));
    expect(result.current.error?.message).toMatch(/provider down.*\(LOUSHO_/);
    expect(result.current.error?.message).not.toMatch(/\n\s+at /);
  });
});
