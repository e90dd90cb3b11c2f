/** The durable behaviours the SQLite store has, on PostgreSQL: restart, approvals after a restart, fencing. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, SessionAwaitingApprovalError } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { gate, recordingWorkTool, referenceTranscript, waitUntil } from '@lousho/test-kit/durable';
import { scriptedProvider, TOOL_TURNS, type ModelRequestLog } from '@lousho/test-kit/durable';
import { databaseUrl, freshSchema, openStore } from './pg-env.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe.skipIf(!databaseUrl)('PostgresStore: durable runs', () => {
  it('a run cut off in one process is resumed by another: only the missing calls run, no stored turn is asked again, the old run is fenced off', async () => {
    const schema = freshSchema();
    const ran1: string[] = [];
    const dying = gate();
    const storeA = await openStore({ schema });
    const agentA = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool(ran1, { ids: new Set(['call_1_1']), until: dying.promise })], store: storeA, maxSteps: 50 });
    const lifeA = agentA.send('Start the job', { sessionId: 'job' });
    lifeA.catch(() => {});
    await waitUntil(() => ran1.includes('call_1_0'), 20_000);
    await settle();
    const stored = (await storeA.checkpoints.load('job'))!;
    expect(stored.run).toMatchObject({ state: 'running' });
    expect(stored.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'call_1_0' });

    const requests: ModelRequestLog[] = [];
    const ran2: string[] = [];
    const storeB = await openStore({ schema });
    const agentB = createAgent({ provider: scriptedProvider({ onRequest: (r) => requests.push(r) }), tools: [recordingWorkTool(ran2)], store: storeB, maxSteps: 50 });
    expect((await agentB.sessions.load('job'))?.status).toBe('running');
    await expect(agentB.send('more', { sessionId: 'job' })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
    const resumed = await agentB.resume('job');
    expect(resumed.finishReason).toBe('stop');
    expect(ran2[0]).toBe('call_1_1');
    expect(ran2).not.toContain('call_1_0');
    expect(Math.min(...requests.map((r) => r.prefixLen))).toBe(stored.messages.length + 1);
    expect(resumed.messages).toEqual(await referenceTranscript());
    expect(resumed.runId).toBe(stored.run!.runId);

    // The first run wakes up: its next checkpoint is refused, and nothing of it reaches the database.
    dying.open();
    await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
    expect((await storeB.checkpoints.load('job'))!.messages).toEqual(resumed.messages);
    const log = await storeB.sessions.eventsAfter('job', 0);
    expect(log.filter((e) => e.type === 'error')).toEqual([]);
    expect(log.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect((await storeB.sessions.get('job'))!.status).toBe('idle');
  });

  it('after a restart, a new turn waits for the dead lease (by the database clock), finishes the interrupted turn, then adds the input', async () => {
    const schema = freshSchema();
    const dying = gate();
    const storeA = await openStore({ schema, leaseMs: 300 });
    const agentA = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool([], { ids: new Set(['call_0_0']), until: dying.promise })], store: storeA });
    agentA.send('Start the job', { sessionId: 'job' }).catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 300));
    // The process dies: its heartbeat is gone with its store.
    await storeA.close();
    const storeB = await openStore({ schema, leaseMs: 300 });
    const ran: string[] = [];
    const agentB = createAgent({ provider: scriptedProvider(), tools: [recordingWorkTool(ran)], store: storeB, maxSteps: 50 });
    let result;
    for (let attempt = 0; ; attempt++) {
      try {
        result = await agentB.send('And report back', { sessionId: 'job' });
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'LOUSHO_SESSION_BUSY' || attempt > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
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
  });

  it('an approval paused in one process is listed, shown and resolved by a new process; the run completes', async () => {
    const schema = freshSchema();
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
    const script = mockModel([{ text: 'Sending.', toolCalls: [{ name: 'send_email', id: 'call_mail', args: { to: 'bob@example.com' } }] }, 'Sent.']);
    const storeA = await openStore({ schema });
    const sentA: string[] = [];
    const paused = await createAgent({ provider: script, tools: [email(sentA)], store: storeA }).send('Email Bob', { sessionId: 'mail' });
    expect(paused.finishReason).toBe('awaiting-approval');
    await storeA.close();

    const sent: string[] = [];
    const storeB = await openStore({ schema });
    const agentB = createAgent({ provider: mockModel(['Sent.']), tools: [email(sent)], store: storeB });
    expect((await agentB.approvals.list()).map((a) => a.approvalId)).toEqual([paused.approvalId]);
    const state = await agentB.sessions.load('mail');
    expect(state).toMatchObject({ status: 'awaiting-approval', pendingApproval: { approvalId: paused.approvalId, toolName: 'send_email' } });
    expect(state!.messages).toEqual(paused.messages);
    await expect(agentB.send('Hello?', { sessionId: 'mail' })).rejects.toBeInstanceOf(SessionAwaitingApprovalError);
    const done = await agentB.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Sent.');
    expect(sent).toEqual(['bob@example.com']);
    expect(sentA).toEqual([]);
    expect((await storeB.checkpoints.load('mail'))!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('two stores on one schema: one lease holder at a time, events numbered by the database across both', async () => {
    const schema = freshSchema();
    const a = await openStore({ schema });
    const b = await openStore({ schema });
    const [first, second] = await Promise.all([a.checkpoints.acquire('s', 'ha'), b.checkpoints.acquire('s', 'hb')]);
    expect([first.acquired, second.acquired].filter(Boolean)).toHaveLength(1);
    const numbered = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).sessions.appendEvents('s', [{ runId: 'r', event: { type: 'step.start', step: i } }])),
    );
    expect(numbered.map((n) => n[0]!.seq).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const holder = first.acquired ? 'ha' : 'hb';
    await expect(a.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'step.start', step: 99 } }], { holder: 'someone-else' })).rejects.toMatchObject({
      code: 'LOUSHO_SESSION_LEASE_LOST',
    });
    expect((await b.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'step.start', step: 21 } }], { holder }))[0]!.seq).toBe(21);
  });
});
