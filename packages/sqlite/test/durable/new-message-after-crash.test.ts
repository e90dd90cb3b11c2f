/**
 * A new message to a session whose run was interrupted (its process died): the interrupted turn is
 * finished first, as the person who asked for it expects, and the new message is answered after
 * it. The message is never lost: it waits through a pause for approval, and a run stopped (or
 * failed) before answering the interrupted turn keeps it, unanswered.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { gate } from '@lousho/test-kit/durable';

const dir = mkdtempSync(join(tmpdir(), 'lousho-takeover-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const LEASE_MS = 60;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * "book" asks for `book_flight`, then (after its result) for `send_email`, then answers "Booked and
 * mailed."; any later message is answered "Noted: <text>".
 */
const provider: LLMProvider = {
  name: 'script',
  defaultModel: 'script-1',
  async *stream({ messages }): AsyncIterable<StreamChunk> {
    const last = messages.at(-1) as Message;
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    if (last.role === 'user' && last.content === 'book') {
      yield { type: 'text-delta', text: 'Booking it.' };
      yield { type: 'tool-call', index: 0, id: 'call_flight', name: 'book_flight', arguments: '{}' };
      yield { type: 'finish', finishReason: 'tool_calls' };
      return;
    }
    if (last.role === 'tool' && last.toolCallId === 'call_flight') {
      yield { type: 'tool-call', index: 0, id: 'call_mail', name: 'send_email', arguments: '{"to":"bob@example.com"}' };
      yield { type: 'finish', finishReason: 'tool_calls' };
      return;
    }
    if (last.role === 'tool' && results.includes('call_mail')) {
      yield { type: 'text-delta', text: 'Booked and mailed.' };
      yield { type: 'finish', finishReason: 'stop' };
      return;
    }
    yield { type: 'text-delta', text: `Noted: ${String(last.content)}` };
    yield { type: 'finish', finishReason: 'stop' };
  },
};

function tools(options: { flightHangs?: Promise<void>; mailNeedsApproval?: boolean } = {}) {
  const ran: string[] = [];
  const flight = defineTool({
    name: 'book_flight',
    description: 'Book the flight',
    input: z.object({}),
    async execute(_args, ctx) {
      if (options.flightHangs) {
        await new Promise<void>((resolve, reject) => {
          const stopped = () => reject(Object.assign(new Error('stopped'), { name: 'AbortError' }));
          void options.flightHangs!.then(resolve);
          if (ctx.abortSignal?.aborted) stopped();
          ctx.abortSignal?.addEventListener('abort', stopped, { once: true });
        });
      }
      ran.push(ctx.toolCallId);
      return 'flight booked';
    },
  });
  const mail = defineTool({
    name: 'send_email',
    description: 'Send an email',
    input: z.object({ to: z.string() }),
    needsApproval: options.mailNeedsApproval ?? false,
    async execute(_args, ctx) {
      ran.push(ctx.toolCallId);
      return 'sent';
    },
  });
  return { list: [flight, mail], ran };
}

/** A session "book" whose first process died while `book_flight` ran; returns the file and the session id. */
async function interruptedSession(): Promise<string> {
  const path = join(dir, `s${++files}.db`);
  const dying = gate();
  const storeA = new SqliteStore(path, { leaseMs: LEASE_MS });
  const agentA = createAgent({ provider, tools: tools({ flightHangs: dying.promise }).list, store: storeA });
  agentA.send('book', { sessionId: 'trip' }).catch(() => {});
  await sleep(30);
  // The process dies: its heartbeat is gone with its store.
  storeA.close();
  await sleep(LEASE_MS * 2);
  return path;
}

const roles = (messages: readonly Message[]) => messages.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : `${m.role}:${String(m.content)}`));

describe('a new message to an interrupted session', () => {
  it('finishes the interrupted turn first (every step of it), then adds the message and answers it', async () => {
    const store = new SqliteStore(await interruptedSession(), { leaseMs: LEASE_MS });
    const { list, ran } = tools();
    const agent = createAgent({ provider, tools: list, store });
    expect((await agent.sessions.load('trip'))?.status).toBe('interrupted');
    const run = agent.stream('and the hotel?', { sessionId: 'trip' });
    const events: AgentStreamEvent[] = [];
    for await (const event of run) events.push(event);
    const result = await run.result;
    expect(ran).toEqual(['call_flight', 'call_mail']);
    expect(roles(result.messages)).toEqual([
      'user:book',
      'assistant:Booking it.',
      'tool:call_flight',
      'assistant:',
      'tool:call_mail',
      'assistant:Booked and mailed.',
      'user:and the hotel?',
      'assistant:Noted: and the hotel?',
    ]);
    // One leg, one stream: the message is shown when it joins the conversation, after the answer it waited for.
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run.start');
    expect(types.indexOf('user.message')).toBeGreaterThan(types.indexOf('tool.done'));
    expect(types.filter((t) => t === 'run.done')).toHaveLength(1);
    expect(result.text).toBe('Noted: and the hotel?');
    store.close();
  });

  it('waits through a pause for approval: the message is added once the decided turn has been answered', async () => {
    const store = new SqliteStore(await interruptedSession(), { leaseMs: LEASE_MS });
    const { list } = tools({ mailNeedsApproval: true });
    const agent = createAgent({ provider, tools: list, store });
    const paused = await agent.send('and the hotel?', { sessionId: 'trip' });
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.messages.some((m) => m.content === 'and the hotel?')).toBe(false);
    // It waits in the store, not in this process's memory: another process can decide.
    const other = createAgent({ provider, tools: tools({ mailNeedsApproval: true }).list, store: new SqliteStore(join(dir, `s${files}.db`), { leaseMs: LEASE_MS }) });
    const [pending] = await other.approvals.list({ sessionId: 'trip' });
    const done = await other.approvals.resolve({ id: pending!.approvalId, approved: true });
    expect(roles(done.messages).slice(-3)).toEqual(['assistant:Booked and mailed.', 'user:and the hotel?', 'assistant:Noted: and the hotel?']);
    store.close();
  });

  it('stopped before the interrupted turn is answered: the message is kept, unanswered', async () => {
    const store = new SqliteStore(await interruptedSession(), { leaseMs: LEASE_MS });
    const hang = gate();
    const agent = createAgent({ provider, tools: tools({ flightHangs: hang.promise }).list, store });
    const controller = new AbortController();
    const run = agent.stream('and the hotel?', { sessionId: 'trip', signal: controller.signal });
    const events: AgentStreamEvent[] = [];
    const read = (async () => {
      for await (const event of run) {
        events.push(event);
        if (event.type === 'tool.call') controller.abort();
      }
    })();
    const result = await run.result;
    await read;
    expect(result.finishReason).toBe('aborted');
    expect(roles(result.messages).slice(-2)).toEqual(['tool:call_flight', 'user:and the hotel?']);
    expect(events.filter((e) => e.type === 'user.message')).toHaveLength(1);
    // The next message finds it in the transcript.
    const next = await agent.send('anything else?', { sessionId: 'trip' });
    expect(roles(next.messages).slice(-3)).toEqual(['user:and the hotel?', 'user:anything else?', 'assistant:Noted: anything else?']);
    hang.open();
    store.close();
  });

  it('the message gets the whole step budget (maxSteps counts from it)', async () => {
    const store = new SqliteStore(await interruptedSession(), { leaseMs: LEASE_MS });
    // The interrupted run used one step; finishing it takes two more: with maxSteps 3 the message still gets answered.
    const agent = createAgent({ provider, tools: tools().list, store, maxSteps: 3 });
    const result = await agent.send('and the hotel?', { sessionId: 'trip' });
    expect(result.finishReason).toBe('stop');
    expect(result.text).toBe('Noted: and the hotel?');
    expect(result.steps).toBe(4);
    store.close();
  });
});
