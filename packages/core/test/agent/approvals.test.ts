import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SessionAwaitingApprovalError, type AgentStreamEvent } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

function emailTool() {
  const sent: string[] = [];
  const tool = defineTool({
    name: 'send_email',
    displayName: 'Send email',
    description: 'Send an email',
    input: z.object({ to: z.string().email(), subject: z.string() }),
    needsApproval: ({ to }) => !to.endsWith('@mycompany.com'),
    async execute({ to, subject }) {
      sent.push(to);
      return { messageId: `${to}:${subject}` };
    },
  });
  return { tool, sent };
}

const emailCall = (to: string, id = 'call_email') => ({ name: 'send_email', id, args: { to, subject: 'Hi' } });

describe('approvals', () => {
  it('pauses send() with awaiting-approval and an approvalId, then resolve runs the call and continues', async () => {
    const { tool, sent } = emailTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'Email sent.']), tools: [tool] });
    const paused = await agent.send('Email Bob');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.approvalId).toEqual(expect.any(String));
    expect(sent).toEqual([]);
    const pending = await agent.approvals.list();
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({
      approvalId: paused.approvalId,
      toolCallId: 'call_email',
      toolName: 'send_email',
      displayName: 'Send email',
      args: { to: 'bob@example.com', subject: 'Hi' },
      kind: 'tool',
      sessionId: paused.sessionId,
    });
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(sent).toEqual(['bob@example.com']);
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Email sent.');
    expect(done.steps).toBe(2);
    expect(await agent.approvals.list()).toEqual([]);
  });

  it('does not pause when the predicate says no', async () => {
    const { tool, sent } = emailTool();
    const result = await createAgent({ provider: mockModel([{ toolCalls: [emailCall('amy@mycompany.com')] }, 'ok']), tools: [tool] }).send('x');
    expect(result.finishReason).toBe('stop');
    expect(sent).toEqual(['amy@mycompany.com']);
  });

  it('sends a rejection with its note to the model as the rejected error result, and the run goes on', async () => {
    const { tool, sent } = emailTool();
    const provider = mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'OK, I will not send it.']);
    const agent = createAgent({ provider, tools: [tool] });
    const paused = await agent.send('Email Bob');
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: false, note: 'not to externals' });
    expect(sent).toEqual([]);
    expect(done.text).toBe('OK, I will not send it.');
    const toolMsg = provider.lastCall!.messages.find((m) => m.role === 'tool')!;
    expect(toolMsg.isError).toBe(true);
    expect(JSON.parse(toolMsg.content as string)).toMatchObject({ error: 'ToolRejectedError', kind: 'rejected', note: 'not to externals', toolName: 'send_email' });
  });

  it('ends stream() at the pause with an approval event carrying what a UI needs', async () => {
    const { tool } = emailTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'sent']), tools: [tool] });
    const events: AgentStreamEvent[] = [];
    const run = agent.stream('Email Bob');
    for await (const e of run) events.push(e);
    const requested = events.find((e) => e.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>;
    expect(requested.approval).toMatchObject({ toolCallId: 'call_email', toolName: 'send_email', displayName: 'Send email', kind: 'tool', args: { to: 'bob@example.com', subject: 'Hi' } });
    expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval', approvalId: requested.approval.approvalId });
    // The streaming continuation.
    const cont = await agent.approvals.resolveStream({ id: requested.approval.approvalId, approved: true });
    const more: AgentStreamEvent[] = [];
    for await (const e of cont) more.push(e);
    expect(more[0]).toMatchObject({ type: 'run.start', continuation: true });
    expect(more.map((e) => e.type)).toContain('approval.resolved');
    expect(more.map((e) => e.type)).toContain('tool.done');
    expect(more.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop', text: 'sent' });
    expect(more[0]!.seq).toBe(events.at(-1)!.seq + 1);
  });

  it('runs the tool once when the same approval is resolved twice at once', async () => {
    const { tool, sent } = emailTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'done']), tools: [tool] });
    const paused = await agent.send('Email Bob');
    const results = await Promise.allSettled([
      agent.approvals.resolve({ id: paused.approvalId!, approved: true }),
      agent.approvals.resolve({ id: paused.approvalId!, approved: true }),
    ]);
    expect(sent).toEqual(['bob@example.com']);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(rejected.reason).toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
  });

  it('gives stable error codes for unknown, already-resolved and wrong-kind decisions, changing nothing', async () => {
    const { tool } = emailTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'done']), tools: [tool], askQuestion: true });
    await expect(agent.approvals.resolve({ id: 'nope', approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_FOUND' });
    const paused = await agent.send('Email Bob');
    await expect(agent.approvals.answer({ id: paused.approvalId!, answer: 'yes' })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_KIND_MISMATCH' });
    expect(await agent.approvals.list()).toHaveLength(1);
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    await expect(agent.approvals.resolve({ id: paused.approvalId!, approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
  });

  it('throws SessionAwaitingApprovalError when a paused session gets new input', async () => {
    const { tool } = emailTool();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [emailCall('bob@example.com')] }, 'done', 'next']), tools: [tool] });
    const s = agent.session('paused');
    const paused = await s.send('Email Bob');
    await expect(s.send('something else')).rejects.toBeInstanceOf(SessionAwaitingApprovalError);
    await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    await expect(s.send('next please')).resolves.toMatchObject({ text: 'next' });
  });

  it('asks the user a question with askQuestion: true; the answer becomes the result', async () => {
    const provider = mockModel([{ toolCalls: [{ name: 'ask_question', id: 'q1', args: { question: 'Which city?' } }] }, 'Paris it is.']);
    const agent = createAgent({ provider, askQuestion: true });
    const paused = await agent.send('Plan a trip');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ kind: 'question', question: 'Which city?', toolName: 'ask_question' });
    await expect(agent.approvals.resolve({ id: paused.approvalId!, approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_KIND_MISMATCH' });
    const done = await agent.approvals.answer({ id: paused.approvalId!, answer: 'Paris' });
    expect(done.text).toBe('Paris it is.');
    const toolMsg = provider.lastCall!.messages.find((m) => m.role === 'tool')!;
    expect(toolMsg.content).toBe('Paris');
  });

  it('decides in code with approve(): true runs, a string rejects with that note', async () => {
    const { tool, sent } = emailTool();
    const provider = mockModel([{ toolCalls: [emailCall('a@x.com', 'c1'), emailCall('b@y.com', 'c2')] }, 'done']);
    const agent = createAgent({ provider, tools: [tool], approve: (call) => ((call.args as { to: string }).to === 'a@x.com' ? true : 'only a@x.com') });
    const result = await agent.send('go');
    expect(result.finishReason).toBe('stop');
    expect(sent).toEqual(['a@x.com']);
    const second = result.messages.filter((m) => m.role === 'tool')[1]!;
    expect(JSON.parse(second.content as string)).toMatchObject({ kind: 'rejected', note: 'only a@x.com' });
  });

  it('in a 3-call batch: calls before the approval run, the run pauses, later calls start only after the decision', async () => {
    const order: string[] = [];
    const step = defineTool({
      name: 'step',
      description: 'step',
      input: z.object({ id: z.string() }),
      needsApproval: ({ id }) => id === 'b',
      execute: async ({ id }) => {
        order.push(id);
        return id;
      },
    });
    const provider = mockModel([
      {
        toolCalls: [
          { name: 'step', id: 'a', args: { id: 'a' } },
          { name: 'step', id: 'b', args: { id: 'b' } },
          { name: 'step', id: 'c', args: { id: 'c' } },
        ],
      },
      'finished',
    ]);
    const agent = createAgent({ provider, tools: [step] });
    const paused = await agent.send('go');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(order).toEqual(['a']);
    expect(paused.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['a']);
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(order).toEqual(['a', 'b', 'c']);
    expect(done.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['a', 'b', 'c']);
    expect(provider.calls).toHaveLength(2);
    expect(provider.lastCall!.messages.filter((m) => m.role === 'tool')).toHaveLength(3);
  });
});
