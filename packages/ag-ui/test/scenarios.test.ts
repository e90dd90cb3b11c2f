import { afterEach, describe, expect, it } from 'vitest';
import { EventType, type HttpAgent, type ToolMessage } from '@ag-ui/client';
import type { GuardrailContext } from '@lousho/core';
import { createCommandGuardrail } from '@lousho/workspace';
import { emailTool, eventually, gate, lookupTool, pageTool, researcher, scriptedAgent, shellTool, slowTool, waitTool } from '@lousho/conformance';
import { serveAgUi, type AgUiServer } from './support/server.js';
import { agUiClient, lastAssistantText, run } from './support/client.js';

// The scenarios of @lousho/conformance that AG-UI can express, played by `@ag-ui/client`'s HttpAgent
// against the AG-UI handler on a real node:http server. docs/ag-ui.md lists the others and why.

let server: AgUiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(agent: Parameters<typeof serveAgUi>[0]): Promise<string> {
  server = await serveAgUi(agent);
  return server.url;
}

function toolMessages(client: HttpAgent): ToolMessage[] {
  return client.messages.filter((message): message is ToolMessage => message.role === 'tool');
}

function resultOf(record: { events: { type: string }[] }): Record<string, unknown> {
  const finished = record.events.find((event) => event.type === EventType.RUN_FINISHED) as { result?: Record<string, unknown> } | undefined;
  return finished?.result ?? {};
}

describe('AG-UI: the conformance scenarios, with @ag-ui/client as the client', () => {
  it('send → streaming text → tool call → approval (an interrupt) → approve (resume) → final answer', async () => {
    const hold = gate();
    const { tool, sent } = emailTool();
    const args = { to: 'bob@example.com', subject: 'Friday' };
    const { agent, model } = scriptedAgent([['Let me ', 'send that.', { wait: hold }, { tool: 'send_email', id: 'call_email', args }], ['Email ', 'sent.']], { tools: [tool] });
    const client = agUiClient(await serve(agent));
    const sending = run(client, 'Email Bob about Friday');
    // The reply shows while it streams, before the model has decided on the tool call.
    await eventually(() => expect(lastAssistantText(client)).toBe('Let me send that.'));
    hold.open();
    const paused = await sending;
    expect(paused.outcome).toBe('interrupt');
    expect(paused.interrupts).toEqual([
      expect.objectContaining({ reason: 'tool_approval', toolCallId: 'call_email', message: 'Approve Send email?', metadata: expect.objectContaining({ toolName: 'send_email', args }) }),
    ]);
    expect(client.pendingInterrupts).toHaveLength(1);
    // The call streamed as AG-UI tool-call events, its arguments whole.
    const assistant = client.messages.find((message) => message.role === 'assistant');
    expect(assistant).toMatchObject({ content: 'Let me send that.', toolCalls: [{ id: 'call_email', function: { name: 'send_email', arguments: JSON.stringify(args) } }] });
    expect(sent).toEqual([]);

    const resumed = await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    expect(resumed.outcome).toBe('success');
    expect(resultOf(resumed)).toMatchObject({ finishReason: 'stop' });
    expect(toolMessages(client)).toEqual([expect.objectContaining({ toolCallId: 'call_email', content: JSON.stringify({ messageId: 'bob@example.com:Friday' }) })]);
    expect(lastAssistantText(client)).toBe('Email sent.');
    expect(client.pendingInterrupts).toEqual([]);
    expect(sent).toEqual(['bob@example.com']);
    expect(model.calls).toHaveLength(2);
    // Usage per model on RUN_FINISHED, and the run state as AG-UI state.
    expect(resumed.events.find((event) => event.type === EventType.RUN_FINISHED)).toMatchObject({ usage: [{ model: 'conformance-model', inputTokens: 20, outputTokens: 10 }] });
    expect(client.state).toMatchObject({ status: 'idle', finishReason: 'stop', usage: { inputTokens: 20, outputTokens: 10 } });
  });

  it('a guardrail block ends the run: finishReason guardrail in the result, the call denied, the thread goes on', async () => {
    const { tool, ran } = shellTool();
    const { agent } = scriptedAgent([['Cleaning up.', { tool: 'shell', id: 'call_rm', args: { command: 'cd / && sudo rm -rf *' } }], ['Hello again.']], {
      tools: [tool],
      guardrails: { tool: [createCommandGuardrail({ deny: ['rm -rf /'] })] },
    });
    const client = agUiClient(await serve(agent));
    const blocked = await run(client, 'free some disk space');
    expect(blocked.outcome).toBe('success');
    expect(resultOf(blocked)).toMatchObject({ finishReason: 'guardrail', guardrail: { name: 'command', stage: 'tool' } });
    expect(JSON.parse(toolMessages(client)[0]!.content as string)).toMatchObject({ kind: 'denied' });
    expect(ran).toEqual([]);
    const next = await run(client, 'hi');
    expect(resultOf(next)).toMatchObject({ finishReason: 'stop' });
    expect(lastAssistantText(client)).toBe('Hello again.');
  });

  it('an input guardrail block ends the run before any model call', async () => {
    const noPasswords = { name: 'no-passwords', check: (ctx: GuardrailContext) => (ctx.stage === 'input' && /password/i.test(ctx.text) ? { block: 'Do not share passwords.' } : undefined) };
    const { agent, model } = scriptedAgent([['Hello.']], { guardrails: { input: [noPasswords] } });
    const client = agUiClient(await serve(agent));
    const blocked = await run(client, 'my password is hunter2');
    expect(resultOf(blocked)).toMatchObject({ finishReason: 'guardrail', guardrail: { name: 'no-passwords', stage: 'input', reason: 'Do not share passwords.' } });
    expect(model.calls).toHaveLength(0);
    await run(client, 'hi');
    expect(JSON.stringify(model.calls[0])).not.toContain('hunter2');
  });

  it('an output guardrail block: the streamed reply gives way to the server transcript (MESSAGES_SNAPSHOT)', async () => {
    const noKeys = { name: 'no-keys', check: (ctx: GuardrailContext) => (ctx.stage === 'output' && ctx.text.includes('sk-') ? { block: 'The reply holds a key.' } : undefined) };
    const { agent } = scriptedAgent([['Your key is sk-live-1234.']], { guardrails: { output: [noKeys] } });
    const client = agUiClient(await serve(agent));
    const blocked = await run(client, 'what is my key?');
    expect(resultOf(blocked)).toMatchObject({ finishReason: 'guardrail', guardrail: { stage: 'output' } });
    expect(blocked.types).toContain(EventType.MESSAGES_SNAPSHOT);
    expect(lastAssistantText(client)).toBe("[This reply was withheld by the guardrail 'no-keys'.]");
    expect(JSON.stringify(client.messages)).not.toContain('sk-live-1234');
  });

  it("a tool guardrail with onBlock 'deny-call' denies only that call and the run goes on", async () => {
    const { tool, ran } = shellTool();
    const { agent, model } = scriptedAgent([[{ tool: 'shell', id: 'call_push', args: { command: 'git push --force' } }], ['I will not force-push.']], {
      tools: [tool],
      guardrails: { tool: [{ ...createCommandGuardrail({ deny: ['git push --force'] }), onBlock: 'deny-call' }] },
    });
    const client = agUiClient(await serve(agent));
    const record = await run(client, 'ship it');
    expect(resultOf(record)).toMatchObject({ finishReason: 'stop' });
    expect(JSON.parse(toolMessages(client)[0]!.content as string)).toMatchObject({ kind: 'denied' });
    expect(lastAssistantText(client)).toBe('I will not force-push.');
    expect(ran).toEqual([]);
    expect(JSON.stringify(model.calls[1])).toContain('git push --force');
  });

  it('reject with a note (a cancelled resume entry): the tool does not run and the model reads the note', async () => {
    const { tool, sent } = emailTool();
    const { agent, model } = scriptedAgent([[{ tool: 'send_email', id: 'call_email', args: { to: 'eve@example.com', subject: 'Hi' } }], ['OK, I will not send it.']], { tools: [tool] });
    const client = agUiClient(await serve(agent));
    const paused = await run(client, 'Email Eve');
    const resumed = await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'cancelled', payload: { note: 'not to externals' } }]);
    expect(resultOf(resumed)).toMatchObject({ finishReason: 'stop' });
    expect(resumed.events).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.approval.resolved', value: expect.objectContaining({ approved: false, note: 'not to externals' }) }));
    expect(lastAssistantText(client)).toBe('OK, I will not send it.');
    expect(sent).toEqual([]);
    expect(JSON.stringify(model.calls[1]!.find((message) => message.role === 'tool')?.content)).toContain('not to externals');
  });

  it('a question, answered: the wrong kind of answer is refused, the answer is the result and the run goes on', async () => {
    const { agent, model } = scriptedAgent([[{ tool: 'ask_question', id: 'q1', args: { question: 'Which city?' } }], ['Paris it is.']], { askQuestion: true });
    const client = agUiClient(await serve(agent));
    const paused = await run(client, 'Plan a trip');
    expect(paused.interrupts).toEqual([expect.objectContaining({ reason: 'question', message: 'Which city?', responseSchema: expect.objectContaining({ required: ['answer'] }) })]);
    const id = paused.interrupts[0]!.id;
    const before = structuredClone(client.messages);
    const wrong = await run(client, undefined, [{ interruptId: id, status: 'resolved', payload: { approved: true } }]);
    expect(wrong.outcome).toBe('error');
    expect(wrong.error?.message).toContain('400');
    expect(client.messages).toEqual(before);
    const answered = await run(client, undefined, [{ interruptId: id, status: 'resolved', payload: { answer: 'Paris' } }]);
    expect(resultOf(answered)).toMatchObject({ finishReason: 'stop' });
    expect(toolMessages(client)).toEqual([expect.objectContaining({ toolCallId: 'q1', content: 'Paris' })]);
    expect(lastAssistantText(client)).toBe('Paris it is.');
    expect(model.calls[1]!.find((message) => message.role === 'tool')?.content).toBe('Paris');
  });

  it('stop mid-stream (abortRun): the run ends as aborted on the server, every call has a result, the thread goes on', async () => {
    const { tool, started } = waitTool();
    const { agent } = scriptedAgent([['Working', ' on it.', { tool: 'wait', id: 'w1' }, { tool: 'wait', id: 'w2' }], ['Ready again.']], { tools: [tool] });
    const client = agUiClient(await serve(agent));
    const sending = run(client, 'go');
    await started.promise;
    client.abortRun();
    await sending;
    await eventually(() => expect(agent.sessions.get(client.threadId)?.status).not.toBe('running'));
    const transcript = agent.sessions.get(client.threadId)!.messages;
    const calls = transcript.flatMap((message) => message.toolCalls ?? []).map((call) => call.id);
    expect(transcript.filter((message) => message.role === 'tool').map((message) => message.toolCallId).sort()).toEqual(calls.sort());
    const next = await run(client, 'and now?');
    expect(resultOf(next)).toMatchObject({ finishReason: 'stop' });
    expect(lastAssistantText(client)).toBe('Ready again.');
  });

  it('a server error: RUN_ERROR with its code and message (no stack), cleared by the next run', async () => {
    const { agent } = scriptedAgent([[new Error('provider down')], ['Back online.']]);
    const client = agUiClient(await serve(agent));
    const failed = await run(client, 'Hi');
    const error = failed.events.find((event) => event.type === EventType.RUN_ERROR) as { code?: string; message: string } | undefined;
    expect(error).toMatchObject({ code: expect.stringMatching(/^LOUSHO_/), message: expect.stringContaining('provider down') });
    expect(error!.message).not.toMatch(/\n\s+at /);
    const next = await run(client, 'Again');
    expect(next.outcome).toBe('success');
    expect(lastAssistantText(client)).toBe('Back online.');
  });

  it('a page reload (a new client on the thread) restores the transcript and the pending interrupt, then the approval goes through', async () => {
    const { tool, sent } = emailTool();
    const { agent, model } = scriptedAgent([['First answer.'], ['Sending.', { tool: 'send_email', id: 'call_email', args: { to: 'bob@example.com', subject: 'Hi' } }], ['Sent.']], { tools: [tool] });
    const url = await serve(agent);
    const first = agUiClient(url);
    await run(first, 'Hello');
    const paused = await run(first, 'Email Bob');
    expect(paused.outcome).toBe('interrupt');

    const second = agUiClient(url, first.threadId);
    const restored = await run(second);
    expect(restored.types).toEqual([EventType.RUN_STARTED, EventType.MESSAGES_SNAPSHOT, EventType.STATE_SNAPSHOT, EventType.RUN_FINISHED]);
    expect(restored.interrupts).toEqual(paused.interrupts);
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(second.messages[1]).toMatchObject({ content: 'First answer.' });
    expect(second.messages[3]).toMatchObject({ content: 'Sending.', toolCalls: [{ id: 'call_email' }] });
    expect(model.calls).toHaveLength(2);

    await run(second, undefined, [{ interruptId: restored.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    expect(lastAssistantText(second)).toBe('Sent.');
    expect(sent).toEqual(['bob@example.com']);
  });

  it('delegation: the sub-agent works live under SUBAGENT_STARTED, its approval suspends it and pauses the run, and the resume finishes it once', async () => {
    const hold = gate();
    const { tool, sent } = emailTool();
    const child = researcher(
      [['Looking into it.', { wait: hold }, { tool: 'lookup', id: 'r1', args: { query: 'Paris' } }], [{ tool: 'send_email', id: 'r2', args: { to: 'bob@example.com', subject: 'Notes' } }], ['Paris is sunny.']],
      [lookupTool(), tool],
    );
    const { agent, model } = scriptedAgent([['Delegating.', { tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Research Paris' } }], ['Done: Paris is sunny.']], { subagents: { researcher: child.agent } });
    const client = agUiClient(await serve(agent));
    const sending = run(client, 'Research Paris in depth');
    // The sub-agent's text is its own message, marked with its subagentRunId; the lead's text stays the lead's.
    await eventually(() => expect(client.messages).toContainEqual(expect.objectContaining({ role: 'assistant', content: 'Looking into it.', subagentRunId: 'subagent:t1' })));
    expect(client.messages.find((message) => message.role === 'assistant' && !('subagentRunId' in message && message.subagentRunId))).toMatchObject({ content: 'Delegating.' });
    hold.open();
    const paused = await sending;
    expect(paused.events).toContainEqual(expect.objectContaining({ type: EventType.SUBAGENT_STARTED, subagentRunId: 'subagent:t1', name: 'researcher', parentToolCallId: 't1' }));
    expect(paused.events).toContainEqual(expect.objectContaining({ type: EventType.SUBAGENT_FINISHED, subagentRunId: 'subagent:t1', outcome: { type: 'suspended', interruptIds: [paused.interrupts[0]!.id] } }));
    expect(paused.interrupts).toEqual([expect.objectContaining({ toolCallId: 'r2', subagentRunId: 'subagent:t1', metadata: expect.objectContaining({ subagent: { name: 'researcher', depth: 1, toolCallId: 't1' } }) })]);

    const resumed = await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }]);
    expect(resumed.events).toContainEqual(expect.objectContaining({ type: EventType.SUBAGENT_FINISHED, subagentRunId: 'subagent:t1', outcome: { type: 'success' } }));
    expect(toolMessages(client)).toContainEqual(expect.objectContaining({ toolCallId: 't1', content: 'Paris is sunny.' }));
    expect(lastAssistantText(client)).toBe('Done: Paris is sunny.');
    expect(sent).toEqual(['bob@example.com']);
    expect(child.model.calls).toHaveLength(3);
    expect(model.calls).toHaveLength(2);
  });

  it('delegation: stopping while the sub-agent works cancels it and the task, and the thread goes on', async () => {
    const { tool, started } = waitTool();
    const child = researcher([['Waiting.', { tool: 'wait', id: 'r1' }]], [tool]);
    const { agent } = scriptedAgent([[{ tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Wait' } }], ['Ready again.']], { subagents: { researcher: child.agent } });
    const client = agUiClient(await serve(agent));
    const sending = run(client, 'go');
    await started.promise;
    client.abortRun();
    await sending;
    await eventually(() => expect(agent.sessions.get(client.threadId)?.status).not.toBe('running'));
    const next = await run(client, 'and now?');
    expect(resultOf(next)).toMatchObject({ finishReason: 'stop' });
    expect(lastAssistantText(client)).toBe('Ready again.');
  });

  it('a new client on a thread reads it once and starts nothing', async () => {
    const { agent, model } = scriptedAgent([['Hi there.']]);
    const url = await serve(agent);
    const first = agUiClient(url);
    await run(first, 'Hello');
    const second = agUiClient(url, first.threadId);
    const synced = await run(second);
    expect(synced.outcome).toBe('success');
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(second.state).toMatchObject({ status: 'idle' });
    expect(model.calls).toHaveLength(1);
  });

  it('impossible actions are refused with an error and no change of state', async () => {
    const { tool, started, release } = slowTool();
    const { agent, model } = scriptedAgent([[{ tool: 'slow', id: 's1' }], ['ok']], { tools: [tool] });
    const url = await serve(agent);
    const client = agUiClient(url);
    const nothingPending = await run(client, undefined, [{ interruptId: 'nope', status: 'resolved', payload: { approved: true } }]);
    expect(nothingPending.outcome).toBe('error');
    expect(client.messages).toEqual([]);

    const first = run(client, 'go');
    await started.promise;
    const other = agUiClient(url, client.threadId);
    const busy = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ threadId: other.threadId, runId: 'r2', messages: [{ id: 'u2', role: 'user', content: 'again' }], tools: [], context: [] }) });
    expect(busy.status).toBe(409);
    expect(await busy.json()).toEqual({ error: { code: 'LOUSHO_SESSION_BUSY', message: expect.any(String) } });
    release.open();
    expect((await first).outcome).toBe('success');
    expect(model.calls).toHaveLength(2);
  });

  it('reset (a new thread id) starts an empty thread; the old one keeps its transcript', async () => {
    const { agent } = scriptedAgent([['one'], ['two']]);
    const url = await serve(agent);
    const first = agUiClient(url);
    await run(first, 'first');
    const fresh = agUiClient(url);
    await run(fresh, 'second');
    expect(fresh.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(lastAssistantText(fresh)).toBe('two');
    expect(agent.sessions.get(first.threadId)!.messages).toHaveLength(2);
  });

  it('compaction: a CUSTOM event says where earlier tool results were shortened', async () => {
    // Two results of ~1,000 tokens each in a 2,000-token window: the third model call is over 90%.
    const { agent } = scriptedAgent([[{ tool: 'read_page', id: 'p1' }], [{ tool: 'read_page', id: 'p2' }], ['Summary.']], { tools: [pageTool()], compaction: { contextWindow: 2000 } });
    const client = agUiClient(await serve(agent));
    const record = await run(client, 'read both pages');
    expect(record.events).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.compaction.done', value: { step: 3, tokensBefore: expect.any(Number), tokensAfter: expect.any(Number), pruned: 1, summarized: 0 } }));
    expect(lastAssistantText(client)).toBe('Summary.');
  });
});
