import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentBuilder,
  AgentExecutor,
  createAgent,
  defineTool,
  InMemoryApprovalStore,
  resumeAfterApproval,
  SessionAwaitingApprovalError,
} from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { memoryStore, type CheckpointWrite } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { gate, recordingWorkTool, referenceTranscript, waitUntil } from '@lousho/test-kit/durable';
import { scriptedProvider, TOOL_TURNS, type ModelRequestLog } from '@lousho/test-kit/durable';

const dir = mkdtempSync(join(tmpdir(), 'lousho-durable-'));
let files = 0;
const dbFile = () => join(dir, `s${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('durable runs: checkpoints', () => {
  it('checkpoints after every model response, every recorded tool result and the end, appending only what is new', async () => {
    const store = memoryStore();
    const writes: { state: string; total: number; appended: number }[] = [];
    const save = store.checkpoints.save.bind(store.checkpoints);
    store.checkpoints.save = (sessionId: string, write: CheckpointWrite) => {
      writes.push({ state: write.run.progress.state, total: write.messages.keep + write.messages.append.length, appended: write.messages.append.length });
      return save(sessionId, write);
    };
    const agent = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool([])], store, toolConcurrency: 1, maxSteps: 50 });
    const result = await agent.send('Start the job', { sessionId: 's' });
    // Each write appends the messages since the previous one, and the transcript grows one message at a time.
    expect(writes.map((w) => w.total)).toEqual([...result.messages.keys()].map((i) => i + 1).concat(result.messages.length));
    expect(writes.slice(0, -1).every((w) => w.appended === 1 && w.state === 'running')).toBe(true);
    expect(writes.at(-1)).toEqual({ state: 'done', total: result.messages.length, appended: 0 });
  });
});

describe('durable runs: recovery after a crash', () => {
  it('resume() runs only the calls without a result and never asks the model again for a stored turn; the dead run is fenced off', async () => {
    const path = dbFile();
    // Life 1: turn 1 asks for call_1_0 and call_1_1; call_1_1 never finishes (the process "dies").
    const requests1: ModelRequestLog[] = [];
    const ran1: string[] = [];
    const dying = gate();
    const storeA = new SqliteStore(path);
    const agentA = createAgent({
      provider: scriptedProvider({ onRequest: (r) => requests1.push(r) }),
      tools: [recordingWorkTool(ran1, { ids: new Set(['call_1_1']), until: dying.promise })],
      store: storeA,
      maxSteps: 50,
    });
    const lifeA = agentA.send('Start the job', { sessionId: 'job' });
    lifeA.catch(() => {});
    await waitUntil(() => ran1.includes('call_1_0'), 5000);
    await settle();
    const stored = storeA.checkpoints.load('job')!;
    expect(stored.run).toMatchObject({ state: 'running' });
    expect(stored.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1_0' });

    // Life 2: another agent on the same file takes the session over.
    const requests2: ModelRequestLog[] = [];
    const ran2: string[] = [];
    const storeB = new SqliteStore(path);
    const agentB = createAgent({ provider: scriptedProvider({ onRequest: (r) => requests2.push(r) }), tools: [recordingWorkTool(ran2)], store: storeB, maxSteps: 50 });
    const loaded = await agentB.sessions.load('job');
    expect(loaded?.status).toBe('running'); // the first life still holds its lease
    await expect(agentB.send('more', { sessionId: 'job' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    const resumed = await agentB.resume('job');
    expect(resumed.finishReason).toBe('stop');
    expect(ran2[0]).toBe('call_1_1');
    expect(ran2).not.toContain('call_1_0');
    expect(Math.min(...requests2.map((r) => r.prefixLen))).toBe(stored.messages.length + 1);
    expect(resumed.messages).toEqual(await referenceTranscript());
    expect(resumed.runId).toBe(stored.run!.runId);
    expect(resumed.steps).toBe(7);

    // The first life wakes up: its next checkpoint is refused, and nothing of it reaches the file.
    dying.open();
    await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
    expect(storeB.checkpoints.load('job')!.messages).toEqual(resumed.messages);
    const log = storeB.sessions.eventsAfter('job', 0);
    expect(log.filter((e) => e.type === 'error')).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(storeB.sessions.get('job')!.status).toBe('idle');
    storeA.close();
    storeB.close();
  });

  it('a new turn on a crashed session waits for the dead lease, finishes the interrupted turn, then adds the input', async () => {
    const path = dbFile();
    const dying = gate();
    const storeA = new SqliteStore(path, { leaseMs: 60 });
    const agentA = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool([], { ids: new Set(['call_0_0']), until: dying.promise })], store: storeA });
    agentA.send('Start the job', { sessionId: 'job' }).catch(() => {});
    await settle();
    // The dead process stops renewing its lease (here: its heartbeat is gone with its store).
    storeA.close();
    const storeB = new SqliteStore(path, { leaseMs: 60 });
    const ran: string[] = [];
    const agentB = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool(ran)], store: storeB, maxSteps: 50 });
    await new Promise((resolve) => setTimeout(resolve, 120));
    const result = await agentB.send('And report back', { sessionId: 'job' });
    expect(ran[0]).toBe('call_0_0');
    const userIndex = result.messages.findIndex((m) => m.role === 'user' && m.content === 'And report back');
    // The interrupted job was finished first, as if it had never stopped: its every call has a
    // result and the model answered it (the scripted job's last turn)...
    const job = result.messages.slice(0, userIndex);
    expect(job.filter((m) => m.role === 'assistant')).toHaveLength(TOOL_TURNS + 1);
    expect(job.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^All done: w0\.0,w1\.0,w1\.1,/) });
    // ...then the new message was added and answered.
    expect(result.messages.slice(userIndex).map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(result.finishReason).toBe('stop');
    dying.open();
    storeB.close();
  });

  it('resume() on a finished run, or an unknown session, says there is nothing to resume', async () => {
    const agent = createAgent({ provider: mockModel(['hi']) });
    await agent.send('x', { sessionId: 's' });
    await expect(agent.resume('s')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_RESUMABLE' });
    await expect(agent.resume('nobody')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_NOT_RESUMABLE' });
  });
});

describe('durable runs: two writers on one session', () => {
  it('a second agent cannot start a turn while the first runs; its stream ends with the error and logs nothing', async () => {
    const path = dbFile();
    const hold = gate();
    const storeA = new SqliteStore(path);
    const storeB = new SqliteStore(path);
    const ranA: string[] = [];
    const agentA = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool(ranA, { ids: new Set(['call_0_0']), until: hold.promise })], store: storeA, maxSteps: 50 });
    const agentB = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool([])], store: storeB, maxSteps: 50 });
    const first = agentA.send('Start the job', { sessionId: 'job' });
    await settle();
    const lastSeq = storeB.sessions.get('job')!.lastSeq;
    await expect(agentB.send('Interleave me', { sessionId: 'job' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    const run = agentB.stream('Interleave me too', { sessionId: 'job' });
    const seen: unknown[] = [];
    await expect(
      (async () => {
        for await (const event of run) seen.push(event);
      })(),
    ).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    expect(seen).toEqual([]);
    expect(storeB.sessions.get('job')!.lastSeq).toBe(lastSeq);
    hold.open();
    const done = await first;
    expect(done.messages).toEqual(await referenceTranscript());
    expect(done.messages.some((m) => typeof m.content === 'string' && m.content.startsWith('Interleave'))).toBe(false);
    // Once it is done, the other agent continues the same conversation.
    const next = await agentB.send('Thanks', { sessionId: 'job' });
    expect(next.messages.slice(0, done.messages.length)).toEqual(done.messages);
    storeA.close();
    storeB.close();
  });
});

describe('durable runs: approvals across a restart', () => {
  const email = (sent: string[]) =>
    defineTool({
      name: 'send_email',
      description: 'Send an email',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      async execute({ to }) {
        sent.push(to);
        return { ok: true };
      },
    });
  const script = () => mockModel([{ text: 'Sending.', toolCalls: [{ name: 'send_email', id: 'call_mail', args: { to: 'bob@example.com' } }] }, 'Sent.']);

  it('pauses in one process, and a new agent on the same file lists, shows and resolves it; the run completes', async () => {
    const path = dbFile();
    const sentA: string[] = [];
    const storeA = new SqliteStore(path);
    const agentA = createAgent({ provider: script(), tools: [email(sentA)], store: storeA });
    const paused = await agentA.send('Email Bob', { sessionId: 'mail' });
    expect(paused.finishReason).toBe('awaiting-approval');
    storeA.close();

    const sent: string[] = [];
    const storeB = new SqliteStore(path);
    const agentB = createAgent({ provider: mockModel(['Sent.']), tools: [email(sent)], store: storeB });
    expect((await agentB.approvals.list()).map((a) => a.approvalId)).toEqual([paused.approvalId]);
    const state = await agentB.sessions.load('mail');
    expect(state).toMatchObject({ status: 'awaiting-approval', pendingApproval: { approvalId: paused.approvalId, toolName: 'send_email' } });
    expect(state!.messages).toEqual(paused.messages);
    expect(agentB.sessions.eventsAfter('mail', 0).at(-2)).toMatchObject({ type: 'approval.requested' });
    await expect(agentB.send('Hello?', { sessionId: 'mail' })).rejects.toBeInstanceOf(SessionAwaitingApprovalError);
    const done = await agentB.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Sent.');
    expect(sent).toEqual(['bob@example.com']);
    expect(sentA).toEqual([]);
    expect(agentB.sessions.get('mail')!.status).toBe('idle');
    expect(storeB.checkpoints.load('mail')!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    storeB.close();
  });

  it('an approval decided by a process that died before continuing is continued by resume()', async () => {
    const path = dbFile();
    const storeA = new SqliteStore(path);
    const paused = await createAgent({ provider: script(), tools: [email([])], store: storeA }).send('Email Bob', { sessionId: 'mail' });
    // The decision was recorded, then the process died.
    storeA.approvals.claim(paused.approvalId!);
    storeA.approvals.complete(paused.approvalId!, { approved: true });
    storeA.close();
    const sent: string[] = [];
    const storeB = new SqliteStore(path);
    const agentB = createAgent({ provider: mockModel(['Sent.']), tools: [email(sent)], store: storeB });
    expect((await agentB.sessions.load('mail'))!.status).toBe('idle');
    const done = await agentB.resume('mail');
    expect(done.text).toBe('Sent.');
    expect(sent).toEqual(['bob@example.com']);
    storeB.close();
  });
});

describe('durable runs: AgentExecutor.execute({ sessionId, checkpointStore })', () => {
  const config = new AgentBuilder().setName('exec').build();

  it('continues a finished conversation with new input, keeping the stored transcript', async () => {
    const checkpointStore = memoryStore().checkpoints;
    const first = await AgentExecutor.execute({ agent: config, input: 'one', provider: mockModel(['first']), sessionId: 's', checkpointStore });
    const second = await AgentExecutor.execute({ agent: config, input: 'two', provider: mockModel(['second']), sessionId: 's', checkpointStore });
    expect(first.messages.map((m) => m.content)).toEqual(['one', 'first']);
    expect(second.messages.map((m) => m.content)).toEqual(['one', 'first', 'two', 'second']);
  });

  it('throws SessionAwaitingApprovalError while paused; resumeAfterApproval continues and checkpoints', async () => {
    const sent: string[] = [];
    const tool = defineTool({
      name: 'send_email',
      description: 'Send an email',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      async execute({ to }) {
        sent.push(to);
        return 'ok';
      },
    });
    const withTool = new AgentBuilder().setName('mailer').addTool(tool).build();
    const checkpointStore = new SqliteStore(dbFile()).checkpoints;
    const approvalStore = new InMemoryApprovalStore();
    const common = { agent: withTool, sessionId: 'm', checkpointStore, approvalStore };
    const paused = await AgentExecutor.execute({
      ...common,
      input: 'Email Bob',
      provider: mockModel([{ toolCalls: [{ name: 'send_email', id: 'c1', args: { to: 'bob' } }] }]),
    });
    expect(paused.finishReason).toBe('awaiting-approval');
    await expect(AgentExecutor.execute({ ...common, input: 'again', provider: mockModel(['x']) })).rejects.toBeInstanceOf(SessionAwaitingApprovalError);
    const done = await resumeAfterApproval({ ...common, provider: mockModel(['Sent.']), approvalId: paused.approvalId!, approved: true });
    expect(done.text).toBe('Sent.');
    expect(sent).toEqual(['bob']);
    expect(checkpointStore.load('m')).toMatchObject({ run: { state: 'done' } });
    expect(checkpointStore.load('m')!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('resumes a run whose process died, from the checkpoint, without re-asking the model', async () => {
    const path = dbFile();
    const hang = gate();
    const ranA: string[] = [];
    const scripted = new AgentBuilder().setName('job').addTool(recordingWorkTool(ranA, { ids: new Set(['call_2_1']), until: hang.promise })).setMaxSteps(50).build();
    const storeA = new SqliteStore(path, { leaseMs: 40 });
    AgentExecutor.execute({ agent: scripted, input: 'Start the job', provider: scriptedProvider(), sessionId: 'job', checkpointStore: storeA.checkpoints }).catch(() => {});
    await waitUntil(() => ranA.includes('call_2_0'), 5000);
    await settle();
    storeA.close();
    await new Promise((resolve) => setTimeout(resolve, 80));
    const requests: ModelRequestLog[] = [];
    const ran: string[] = [];
    const storeB = new SqliteStore(path);
    const resumedConfig = new AgentBuilder().setName('job').addTool(recordingWorkTool(ran)).setMaxSteps(50).build();
    const result = await AgentExecutor.execute({
      agent: resumedConfig,
      input: [],
      provider: scriptedProvider({ onRequest: (r) => requests.push(r) }),
      sessionId: 'job',
      checkpointStore: storeB.checkpoints,
    });
    expect(ran.slice(0, 2)).toEqual(['call_2_1', 'call_2_2']);
    expect(result.messages).toEqual(await referenceTranscript());
    expect(requests.length).toBe(4);
    hang.open();
    storeB.close();
  });
});
