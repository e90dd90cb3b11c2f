/**
 * `POST /sessions/:id/resume`: the "Resume" button of a turn whose server process died. It resumes
 * the interrupted run from its checkpoint and streams it; it never cuts off a run that is alive
 * (409 while another process holds the session), and it says when nothing was interrupted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createAgentHandler, defineTool, type AgentUIState, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { errorOf, gate, readSse, serve, lastStepText } from '@lousho/test-kit/http';

const dir = mkdtempSync(join(tmpdir(), 'lousho-resume-route-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEASE_MS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** "go": a tool call, then (after its result) "Done."; anything else: "ok". */
const provider: LLMProvider = {
  name: 'script',
  defaultModel: 'script-1',
  async *stream({ messages }): AsyncIterable<StreamChunk> {
    const last = messages.at(-1) as Message;
    if (last.role === 'user' && last.content === 'go') {
      yield { type: 'text-delta', text: 'On it.' };
      yield { type: 'tool-call', index: 0, id: 'call_work', name: 'work', arguments: '{}' };
      yield { type: 'finish', finishReason: 'tool_calls' };
      return;
    }
    yield { type: 'text-delta', text: last.role === 'tool' ? 'Done.' : 'ok' };
    yield { type: 'finish', finishReason: 'stop' };
  },
};

const workTool = (until?: Promise<void>) =>
  defineTool({
    name: 'work',
    description: 'Works',
    input: z.object({}),
    async execute() {
      if (until) await until;
      return 'worked';
    },
  });

/** A SQLite file with session "job" (owned by the default principal) whose process died while `work` ran. */
async function interruptedJob(): Promise<string> {
  const path = join(dir, `s${++files}.db`);
  const dying = gate();
  const storeA = new SqliteStore(path, { leaseMs: LEASE_MS });
  await storeA.sessions.create('job', { owner: 'anonymous' });
  const agentA = createAgent({ provider, tools: [workTool(dying.promise)], store: storeA });
  agentA.send('go', { sessionId: 'job' }).catch(() => {});
  await sleep(30);
  storeA.close(); // the process dies: its lease is no longer renewed
  await sleep(LEASE_MS * 2);
  return path;
}

describe('POST /sessions/:id/resume', () => {
  it('resumes an interrupted turn from its checkpoint and streams it; then there is nothing to resume', async () => {
    const store = new SqliteStore(await interruptedJob(), { leaseMs: LEASE_MS });
    const server = await serve(createAgentHandler(createAgent({ provider, tools: [workTool()], store })));
    try {
      const before = (await (await fetch(`${server.url}/sessions/job`)).json()) as { status: string; state: AgentUIState };
      expect(before.status).toBe('interrupted');
      expect(before.state).toMatchObject({ status: 'idle', finishReason: 'interrupted' });

      const response = await fetch(`${server.url}/sessions/job/resume`, { method: 'POST' });
      expect(response.status).toBe(200);
      const { events } = await readSse(response);
      expect(events[0]).toMatchObject({ type: 'run.start', continuation: true });
      expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
      expect(lastStepText(events)).toBe('Done.');
      const after = (await (await fetch(`${server.url}/sessions/job`)).json()) as { status: string; messages: Message[] };
      expect(after.status).toBe('idle');
      expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);

      expect(await errorOf(await fetch(`${server.url}/sessions/job/resume`, { method: 'POST' }))).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_NOT_RESUMABLE' });
    } finally {
      await server.close();
      store.close();
    }
  });

  it('never takes a live run over: 409 LOUSHO_SESSION_BUSY while another process holds the session, and that run goes on', async () => {
    const path = join(dir, `s${++files}.db`);
    const release = gate();
    const storeA = new SqliteStore(path, { leaseMs: LEASE_MS });
    await storeA.sessions.create('job', { owner: 'anonymous' });
    const agentA = createAgent({ provider, tools: [workTool(release.promise)], store: storeA });
    const running = agentA.send('go', { sessionId: 'job' });
    await sleep(LEASE_MS * 2); // well past one lease: A renews it, so it is still A's

    const storeB = new SqliteStore(path, { leaseMs: LEASE_MS });
    const server = await serve(createAgentHandler(createAgent({ provider, tools: [workTool()], store: storeB })));
    try {
      expect((await (await fetch(`${server.url}/sessions/job`)).json()) as { status: string }).toMatchObject({ status: 'running' });
      expect(await errorOf(await fetch(`${server.url}/sessions/job/resume`, { method: 'POST' }))).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_BUSY' });
      release.open();
      expect(await running).toMatchObject({ finishReason: 'stop', text: 'Done.' });
    } finally {
      await server.close();
      storeA.close();
      storeB.close();
    }
  });

  it('is a POST on a session of the caller', async () => {
    const store = new SqliteStore(await interruptedJob(), { leaseMs: LEASE_MS });
    const handler = createAgentHandler(createAgent({ provider, tools: [workTool()], store }), { authorize: (request) => request.headers.get('x-user') });
    const server = await serve(handler);
    try {
      expect(await errorOf(await fetch(`${server.url}/sessions/job/resume`, { headers: { 'x-user': 'anonymous' } }))).toMatchObject({ status: 405, code: 'LOUSHO_METHOD_NOT_ALLOWED' });
      expect(await errorOf(await fetch(`${server.url}/sessions/job/resume`, { method: 'POST', headers: { 'x-user': 'mallory' } }))).toMatchObject({
        status: 404,
        code: 'LOUSHO_SESSION_NOT_FOUND',
      });
      // Nothing happened to it.
      expect(((await (await fetch(`${server.url}/sessions/job`, { headers: { 'x-user': 'anonymous' } })).json()) as { status: string }).status).toBe('interrupted');
    } finally {
      await server.close();
      store.close();
    }
  });
});
