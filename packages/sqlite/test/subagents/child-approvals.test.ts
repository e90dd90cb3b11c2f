import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SessionAwaitingApprovalError, type AgentStreamEvent } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { mockModel, type MockModelStep } from '@lousho/core/testing';
import { gate, waitUntil } from '@lousho/test-kit/durable';

const dir = mkdtempSync(join(tmpdir(), 'lousho-subagents-'));
let files = 0;
const dbFile = () => join(dir, `s${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const task = (subagent: string, prompt: string, id = 'call_task') => ({ name: 'task', id, args: { subagent, prompt } });

/** The researcher's tools: `lookup` runs freely, `publish` needs a person. Each records the calls it ran. */
function tools(ran: string[], hang?: { id: string; until: Promise<void> }) {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a topic up',
    input: z.object({ topic: z.string() }),
    async execute({ topic }, ctx) {
      if (hang?.id === ctx.toolCallId) await hang.until;
      ran.push(ctx.toolCallId);
      return `${topic}: found`;
    },
  });
  const publish = defineTool({
    name: 'publish',
    displayName: 'Publish notes',
    description: 'Publishes the notes',
    input: z.object({ title: z.string() }),
    needsApproval: true,
    async execute({ title }, ctx) {
      ran.push(ctx.toolCallId);
      return `published ${title}`;
    },
  });
  return [lookup, publish];
}

// The researcher looks up, then in one turn looks up again and publishes (which waits), then answers.
const researcherScript = (): MockModelStep[] => [
  { toolCalls: [{ name: 'lookup', id: 'r1', args: { topic: 'tea' } }] },
  { toolCalls: [{ name: 'lookup', id: 'r2', args: { topic: 'oolong' } }, { name: 'publish', id: 'r3', args: { title: 'Tea' } }] },
  'Tea notes published.',
];

function team(options: { ran?: string[]; child?: MockModelStep[]; lead?: MockModelStep[]; store?: SqliteStore; hang?: { id: string; until: Promise<void> } } = {}) {
  const ran = options.ran ?? [];
  const childModel = mockModel(options.child ?? researcherScript());
  const leadModel = mockModel(options.lead ?? [{ toolCalls: [task('researcher', 'Research tea', 't1')] }, 'Done: tea notes are out.']);
  const researcher = createAgent({ name: 'researcher', description: 'Researches a topic in depth.', provider: childModel, tools: tools(ran, options.hang) });
  const agent = createAgent({ provider: leadModel, subagents: { researcher }, ...(options.store ? { store: options.store } : {}) });
  return { agent, childModel, leadModel, ran };
}

const ref = { name: 'researcher', depth: 1, toolCallId: 't1' };

describe('sub-agents: approvals inside a child', () => {
  it('pauses the whole run on the child call, naming the sub-agent; approving continues the child, then the lead, once each', async () => {
    const { agent, childModel, leadModel, ran } = team();
    const paused = await agent.send('Tell me about tea', { sessionId: 's' });
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ toolCallId: 'r3', toolName: 'publish', displayName: 'Publish notes', kind: 'tool', args: { title: 'Tea' }, subagent: ref });
    expect(ran).toEqual(['r1', 'r2']);
    expect(agent.sessions.get('s')).toMatchObject({ status: 'awaiting-approval', pendingApproval: { approvalId: paused.approvalId, subagent: ref } });
    expect((await agent.approvals.list()).map((a) => a.subagent)).toEqual([ref]);
    await expect(agent.send('Hello?', { sessionId: 's' })).rejects.toBeInstanceOf(SessionAwaitingApprovalError);

    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Done: tea notes are out.');
    expect(ran).toEqual(['r1', 'r2', 'r3']);
    expect(childModel.calls).toHaveLength(3);
    expect(leadModel.calls).toHaveLength(2);
    // The child's last turn saw both results of its paused turn, in call order.
    expect(childModel.calls[2]!.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['r1', 'r2', 'r3']);
    expect(leadModel.calls[1]!.messages.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 't1', content: 'Tea notes published.' });
    expect(done.usage.delegated).toMatchObject({ runs: 1, modelCalls: 3 });
    expect(done.usage.modelCalls).toBe(5);
    expect(await agent.approvals.list()).toEqual([]);
    await expect(agent.approvals.resolve({ id: paused.approvalId!, approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
    expect(ran).toEqual(['r1', 'r2', 'r3']);
  });

  it('a rejection reaches the child as the rejected result, and both runs go on', async () => {
    const { agent, childModel, ran } = team({ child: [researcherScript()[1]!, 'Not published.'] });
    const paused = await agent.send('x');
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: false, note: 'not yet' });
    expect(ran).toEqual(['r2']);
    const rejected = childModel.calls[1]!.messages.find((m) => m.role === 'tool' && m.toolCallId === 'r3')!;
    expect(JSON.parse(rejected.content as string)).toMatchObject({ kind: 'rejected', note: 'not yet' });
    expect(done.text).toBe('Done: tea notes are out.');
  });

  it('streams the pause and the continuation with the child events attributed', async () => {
    const { agent } = team();
    const first: AgentStreamEvent[] = [];
    for await (const e of agent.stream('x', { sessionId: 's' })) first.push(e);
    const requested = first.find((e) => e.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>;
    expect(requested).toMatchObject({ subagent: ref, approval: { toolCallId: 'r3', subagent: ref } });
    expect(first.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval', approvalId: requested.approval.approvalId });
    // The lead's task call has no result yet; the child's lookup calls have theirs.
    expect(first.some((e) => e.type === 'tool.done' && e.toolCallId === 't1')).toBe(false);
    expect(first.filter((e) => e.type === 'tool.done').map((e) => [(e as { toolCallId: string }).toolCallId, e.subagent?.name])).toEqual([
      ['r1', 'researcher'],
      ['r2', 'researcher'],
    ]);

    const rest: AgentStreamEvent[] = [];
    for await (const e of await agent.approvals.resolveStream({ id: requested.approval.approvalId, approved: true })) rest.push(e);
    expect(rest[0]).toMatchObject({ type: 'run.start', continuation: true });
    expect(rest[1]).toMatchObject({ type: 'approval.resolved', toolCallId: 'r3', approved: true, subagent: ref });
    const done = rest.filter((e) => e.type === 'tool.done').map((e) => [(e as { toolCallId: string }).toolCallId, e.subagent?.name]);
    expect(done).toEqual([
      ['r3', 'researcher'],
      ['t1', undefined],
    ]);
    expect(rest.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // One numbering for the whole session, across both legs.
    const seqs = [...first, ...rest].map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
  });

  it('parallel children: one pauses, the other finishes; after the decision the finished one is not run again', async () => {
    const ran: string[] = [];
    const quick = createAgent({ description: 'Quick.', provider: mockModel([{ toolCalls: [{ name: 'lookup', id: 'q1', args: { topic: 'x' } }] }, 'quick answer']), tools: tools(ran) });
    const researcher = createAgent({ name: 'researcher', description: 'Researches.', provider: mockModel(researcherScript()), tools: tools(ran) });
    const leadModel = mockModel([{ toolCalls: [task('researcher', 'Research tea', 't1'), task('quick', 'Be quick', 't2')] }, 'Both done.']);
    const lead = createAgent({ provider: leadModel, subagents: { researcher, quick }, toolConcurrency: 2 });
    const quickCalls = () => ran.filter((id) => id === 'q1').length;
    const paused = await lead.send('x');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(quickCalls()).toBe(1);
    const done = await lead.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Both done.');
    expect(quickCalls()).toBe(1);
    expect(leadModel.calls[1]!.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content])).toEqual([
      ['t1', 'Tea notes published.'],
      ['t2', 'quick answer'],
    ]);
  });
});

describe('sub-agents: durable', () => {
  it('approves a child call after a restart: a new agent on the same file continues the child, then the lead', async () => {
    const path = dbFile();
    const ranA: string[] = [];
    const storeA = new SqliteStore(path);
    const paused = await team({ ran: ranA, store: storeA }).agent.send('Tell me about tea', { sessionId: 'tea' });
    expect(paused.finishReason).toBe('awaiting-approval');
    storeA.close();

    const ranB: string[] = [];
    const storeB = new SqliteStore(path);
    // The new process's models only have what is left to say.
    const b = team({ ran: ranB, store: storeB, child: ['Tea notes published.'], lead: ['Done: tea notes are out.'] });
    const state = await b.agent.sessions.load('tea');
    expect(state).toMatchObject({ status: 'awaiting-approval', pendingApproval: { approvalId: paused.approvalId, subagent: ref } });
    const done = await b.agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Done: tea notes are out.');
    expect(ranA).toEqual(['r1', 'r2']);
    expect(ranB).toEqual(['r3']);
    expect(b.childModel.calls).toHaveLength(1);
    expect(b.childModel.calls[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'tool']);
    expect(done.usage.delegated).toMatchObject({ runs: 1, modelCalls: 3 });
    expect(storeB.checkpoints.load('tea')!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    storeB.close();
  });

  it('a crash in the middle of a child resumes it without asking the model again for a turn it has, or re-running a recorded call', async () => {
    const path = dbFile();
    const dying = gate();
    const ranA: string[] = [];
    const storeA = new SqliteStore(path);
    // r2 hangs: the process "dies" while the child's second turn runs; r1 is recorded.
    const a = team({ ran: ranA, store: storeA, hang: { id: 'r2', until: dying.promise }, child: [researcherScript()[0]!, { toolCalls: [{ name: 'lookup', id: 'r2', args: { topic: 'oolong' } }] }, 'never'] });
    const lifeA = a.agent.send('Tell me about tea', { sessionId: 'tea' });
    lifeA.catch(() => {});
    await waitUntil(() => a.childModel.calls.length === 2, 5000);
    await new Promise((resolve) => setTimeout(resolve, 30));

    const ranB: string[] = [];
    const storeB = new SqliteStore(path);
    const b = team({ ran: ranB, store: storeB, child: ['Oolong is tea.'], lead: ['Here you go.'] });
    const resumed = await b.agent.resume('tea');
    expect(resumed.finishReason).toBe('stop');
    expect(resumed.text).toBe('Here you go.');
    expect(ranA).toEqual(['r1']);
    expect(ranB).toEqual(['r2']);
    // The child was asked once more: for the turn after its interrupted one, with the stored transcript.
    expect(b.childModel.calls).toHaveLength(1);
    expect(b.childModel.calls[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(b.leadModel.calls).toHaveLength(1);
    expect(b.leadModel.calls[0]!.messages.find((m) => m.role === 'tool')).toMatchObject({ toolCallId: 't1', content: 'Oolong is tea.' });
    expect(resumed.usage.delegated).toMatchObject({ runs: 1, modelCalls: 3 });
    dying.open();
    await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
    storeA.close();
    storeB.close();
  });

  it('a crash after the child answered but before the lead recorded it returns the saved answer without running the child again', async () => {
    const path = dbFile();
    const dying = gate();
    const ran: string[] = [];
    const storeA = new SqliteStore(path);
    const slow = defineTool({ name: 'slow', description: 's', input: z.object({}), execute: () => dying.promise.then(() => 'late') });
    const childModel = mockModel(['child answer']);
    const researcher = createAgent({ name: 'researcher', description: 'R.', provider: childModel, tools: tools(ran) });
    // The lead asks for the task and a slow call in one turn; the task finishes, `slow` never does.
    const agentA = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'slow', id: 's0', args: {} }, task('researcher', 'go', 't1')] }, 'never']), subagents: { researcher }, tools: [slow], store: storeA });
    const lifeA = agentA.send('x', { sessionId: 'j' });
    lifeA.catch(() => {});
    await waitUntil(() => childModel.calls.length === 1, 5000);
    await new Promise((resolve) => setTimeout(resolve, 30));

    const storeB = new SqliteStore(path);
    const childB = mockModel([]);
    const agentB = createAgent({
      provider: mockModel(['all done']),
      subagents: { researcher: createAgent({ name: 'researcher', description: 'R.', provider: childB }) },
      tools: [defineTool({ name: 'slow', description: 's', input: z.object({}), execute: () => 'quick' })],
      store: storeB,
    });
    const resumed = await agentB.resume('j');
    expect(resumed.text).toBe('all done');
    expect(childB.calls).toHaveLength(0);
    expect(resumed.messages.filter((m) => m.role === 'tool').map((m) => [m.toolCallId, m.content])).toEqual([
      ['s0', 'quick'],
      ['t1', 'child answer'],
    ]);
    expect(resumed.usage.delegated).toMatchObject({ runs: 1, modelCalls: 1 });
    dying.open();
    await lifeA.catch(() => {});
    storeA.close();
    storeB.close();
  });
});
