/**
 * Two handler processes on loopback sharing one PostgreSQL database (issue 11): a stream followed
 * from the other process, a stop and an approval received by the other process, and a process
 * killed mid-turn whose session the other one takes over once the lease has run out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentStreamEvent, AgentUIState, Message } from '@lousho/core';
import { coveredSeqs, errorOf, json, plain, readSse, reduceAll } from '@lousho/test-kit/http';
import { openStream, until, within } from './live-stream.js';
import { bundleChild, startHandler, type HandlerProcess } from './processes.js';
import { databaseUrl, freshSchema, openStore, synchronousCommit, synchronousCommitOf } from './pg-env.js';

const LEASE_MS = 3000;
// The handler processes commit synchronously (see pg-env.ts), as a production database would.
const processUrl = databaseUrl && synchronousCommit(databaseUrl);

describe.skipIf(!databaseUrl)('two handler processes sharing one PostgreSQL database', () => {
  const schema = freshSchema('two');
  let bundle: Awaited<ReturnType<typeof bundleChild>>;
  let a: HandlerProcess;
  let b: HandlerProcess;
  const extra: HandlerProcess[] = [];

  beforeAll(async () => {
    await openStore({ schema }); // creates the schema (and its cleanup) before the children migrate
    expect(await synchronousCommitOf(processUrl!)).toBe('on');
    bundle = await bundleChild();
    [a, b] = await Promise.all([startHandler(bundle.file, processUrl!, schema, LEASE_MS), startHandler(bundle.file, processUrl!, schema, LEASE_MS)]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a, b, ...extra].filter(Boolean).map((p) => p.kill()));
    bundle?.remove();
  });

  const newSession = async (on: HandlerProcess): Promise<string> =>
    ((await (await fetch(`${on.url}/sessions`, { method: 'POST' })).json()) as { sessionId: string }).sessionId;
  const sessionOf = async (on: HandlerProcess, id: string) =>
    (await (await fetch(`${on.url}/sessions/${id}`)).json()) as { status: string; messages: Message[]; lastSeq: number; pendingApproval: { approvalId: string } | null };
  /** Starts a turn and reads its whole stream in the background. */
  const turn = (on: HandlerProcess, id: string, input: string) => fetch(`${on.url}/sessions/${id}/messages`, json({ input })).then((r) => readSse(r));

  /** The states of the UI's tool parts, in order. */
  const toolStates = (state: AgentUIState): string[] => state.messages.flatMap((m) => m.parts).flatMap((p) => (p.type === 'tool' ? [p.state] : []));

  /** Every tool call of the transcript has exactly one result. */
  function expectEveryCallAnswered(messages: Message[]): void {
    const calls = messages.flatMap((m) => (m.role === 'assistant' ? (m.toolCalls ?? []).map((c) => c.id) : []));
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
    expect(calls.length).toBeGreaterThan(0);
    expect([...results].sort()).toEqual([...calls].sort());
  }

  it('follows a turn running on A from B with Last-Event-ID: the rest of the events, in order, no gap, no duplicate', async () => {
    const id = await newSession(a);
    const holdsBefore = a.messages.filter((m) => m.type === 'hold').length;
    const onA = turn(a, id, 'hold on, work on it');
    // The turn is at its tool calls: text deltas and the calls are stored by now.
    await a.next((m) => m.type === 'hold' && a.messages.filter((x) => x.type === 'hold').length >= holdsBefore + 2);
    const resumeAfter = 3;
    const response = await fetch(`${b.url}/sessions/${id}/events`, { headers: { 'last-event-id': String(resumeAfter) } });
    expect(response.status).toBe(200);
    const onB = readSse(response);
    a.send('release');
    const [streamA, streamB] = await Promise.all([onA, onB]);

    expect(streamA.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(streamB.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // Deltas that reached a stream together may come merged (`fromSeq`..`seq`): compare what they stand for.
    const seqsA = coveredSeqs(streamA.events);
    expect(seqsA).toEqual(seqsA.map((_, i) => i + 1));
    expect(coveredSeqs(streamB.events)).toEqual(seqsA.filter((seq) => seq > resumeAfter));
    // No client ever gets the stored form of a merged delta.
    expect(streamB.events.some((e) => 'pieceSizes' in e)).toBe(false);
    // What B showed adds up to what A showed.
    const beforeResume = streamA.events.filter((e) => e.seq <= resumeAfter);
    expect(coveredSeqs(beforeResume)).toEqual(Array.from({ length: resumeAfter }, (_, i) => i + 1));
    expect(plain(reduceAll(streamB.events, reduceAll(beforeResume)))).toEqual(plain(reduceAll(streamA.events)));
    // A stream on B started before the turn's end saw its live events as A sent them (where neither merged any).
    const live = streamB.events.filter((e) => !('fromSeq' in e));
    for (const event of live) {
      const onA = streamA.events.find((x) => x.seq === event.seq);
      if (onA && !('fromSeq' in onA)) expect(plain(event)).toEqual(plain(onA));
    }
    const state = await sessionOf(b, id);
    expect(state.status).toBe('idle');
    expectEveryCallAnswered(state.messages);
  });

  it('stops from B a turn running on A: A ends aborted and every tool call has a result', async () => {
    const id = await newSession(a);
    const holdsBefore = a.messages.filter((m) => m.type === 'hold').length;
    const onA = turn(a, id, 'hold everything');
    await a.next(() => a.messages.filter((x) => x.type === 'hold').length >= holdsBefore + 2);
    const stop = await fetch(`${b.url}/sessions/${id}/stop`, { method: 'POST' });
    expect(stop.status).toBe(200);
    expect(await stop.json()).toEqual({ stopped: true });
    const streamA = await onA;
    expect(streamA.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'aborted' });
    // Both calls were cut off by the stop: each ends with a `cancelled` error result.
    const ends = streamA.events.filter((e): e is Extract<AgentStreamEvent, { type: 'tool.error' }> => e.type === 'tool.error');
    expect(ends.map((e) => e.error.kind)).toEqual(['cancelled', 'cancelled']);
    const state = await sessionOf(b, id);
    expect(state.status).toBe('idle');
    expectEveryCallAnswered(state.messages);
    // Nothing is running any more: a second stop finds nothing.
    expect(await (await fetch(`${b.url}/sessions/${id}/stop`, { method: 'POST' })).json()).toEqual({ stopped: false });
  });

  it('a turn paused on approval on A is approved on B, and the run completes', async () => {
    const id = await newSession(a);
    const paused = await turn(a, id, 'email Bob please');
    const done = paused.events.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    expect(done).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });
    const sentBefore = b.messages.filter((m) => m.type === 'sent').length;
    const decided = await readSse(await fetch(`${b.url}/sessions/${id}/approvals/${done.approvalId}`, json({ approved: true })));
    expect(decided.events[0]).toMatchObject({ type: 'run.start', continuation: true, seq: done.seq + 1 });
    expect(decided.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    expect(b.messages.filter((m) => m.type === 'sent').length).toBe(sentBefore + 1);
    expect(a.messages.some((m) => m.type === 'sent')).toBe(false);
    const state = await sessionOf(a, id);
    expect(state.status).toBe('idle');
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it("a sub-agent's call paused on approval on a process that then stops is approved on B: the sub-agent, then the lead, go on there, once each", async () => {
    const c = await startHandler(bundle.file, processUrl!, schema, LEASE_MS);
    extra.push(c);
    const id = await newSession(c);
    const paused = await turn(c, id, 'delegate email Bob about the results');
    const done = paused.events.at(-1) as Extract<AgentStreamEvent, { type: 'run.done' }>;
    expect(done).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });
    const requested = paused.events.find((e) => e.type === 'approval.requested') as Extract<AgentStreamEvent, { type: 'approval.requested' }>;
    const researcher = { name: 'researcher', depth: 1, toolCallId: expect.stringMatching(/_task$/) };
    expect(requested).toMatchObject({ subagent: researcher, approval: { approvalId: done.approvalId, toolName: 'send_email', subagent: researcher } });
    // The process that paused is gone; another one reads the session from the database.
    await c.kill();
    const before = await sessionOf(b, id);
    expect(before).toMatchObject({ status: 'awaiting-approval', pendingApproval: { approvalId: done.approvalId, subagent: researcher } });

    const sentBefore = b.messages.filter((m) => m.type === 'sent').length;
    const decided = await readSse(await fetch(`${b.url}/sessions/${id}/approvals/${done.approvalId}`, json({ approved: true })));
    expect(decided.events[0]).toMatchObject({ type: 'run.start', continuation: true, seq: done.seq + 1 });
    expect(decided.events.find((e) => e.type === 'approval.resolved')).toMatchObject({ approved: true, subagent: researcher });
    // The sub-agent's email, then the lead's task call, each done once; then the lead answers.
    const ends = decided.events.filter((e): e is Extract<AgentStreamEvent, { type: 'tool.done' }> => e.type === 'tool.done');
    expect(ends.map((e) => [e.toolName, e.subagent?.name])).toEqual([
      ['send_email', 'researcher'],
      ['task', undefined],
    ]);
    expect(decided.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop', usage: { delegated: { runs: 1, modelCalls: 2 } } });
    expect(b.messages.filter((m) => m.type === 'sent').length).toBe(sentBefore + 1);
    expect(c.messages.some((m) => m.type === 'sent')).toBe(false);
    // The UI state from the log nests the sub-agent's work in the task card, finished.
    const state = reduceAll([...paused.events, ...decided.events]);
    const task = state.messages.flatMap((m) => m.parts).find((p) => p.type === 'tool' && p.toolName === 'task') as { state: string; subagent?: { name: string; status: string } };
    expect(task).toMatchObject({ state: 'done', subagent: { name: 'researcher', status: 'done' } });

    const after = await sessionOf(a, id);
    expect(after.status).toBe('idle');
    expect(after.pendingApproval).toBeNull();
    expect(after.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(after.messages[2]).toMatchObject({ role: 'tool', content: 'All done, both parts are finished.' });
    // Deciding it again is refused: it ran once.
    const again = await fetch(`${a.url}/sessions/${id}/approvals/${done.approvalId}`, json({ approved: true }));
    expect(again.status).toBeGreaterThanOrEqual(400);
    expect(b.messages.filter((m) => m.type === 'sent').length).toBe(sentBefore + 1);
    // It starts a process of its own: as long as the other tests that do.
  }, 60_000);

  it('A killed with SIGKILL mid-turn: B refuses while the lease lasts, then takes the session over and finishes the turn', async () => {
    const c = await startHandler(bundle.file, processUrl!, schema, LEASE_MS);
    extra.push(c);
    const id = await newSession(c);
    void turn(c, id, 'hold this job').catch(() => {});
    await c.next(() => c.messages.filter((x) => x.type === 'hold').length >= 2);
    // Someone on A follows it.
    const follower = await openStream(`${a.url}/sessions/${id}/events`, { headers: { 'last-event-id': '0' } });
    await c.kill('SIGKILL');

    // The dead process's lease still counts: B says the session is busy.
    const early = await fetch(`${b.url}/sessions/${id}/messages`, json({ input: 'and report back' }));
    expect(await errorOf(early)).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_BUSY' });

    b.send('auto-release');
    let finished: Awaited<ReturnType<typeof readSse>> | undefined;
    const deadline = Date.now() + 60_000;
    while (!finished && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const attempt = await fetch(`${b.url}/sessions/${id}/messages`, json({ input: 'and report back' }));
      if (attempt.status === 409) {
        expect((await errorOf(attempt)).code).toBe('LOUSHO_SESSION_BUSY');
        continue;
      }
      finished = await readSse(attempt);
    }
    expect(finished?.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // The follower on A goes on with the run that took over, or (when A's own look at the dead
    // lease came first) ends with the turn interrupted and picks the rest up from there.
    await within(follower.done, "A's follower");
    const followed = follower.events.slice();
    if (followed.at(-1)?.type === 'run.interrupted') {
      followed.push(...(await readSse(await fetch(`${a.url}/sessions/${id}/events`, { headers: { 'last-event-id': String(followed.at(-1)!.seq) } }))).events);
    }
    expect(followed.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    const reloaded = (await (await fetch(`${a.url}/sessions/${id}`)).json()) as { state: AgentUIState };
    expect(plain(reduceAll(followed))).toEqual(plain(reloaded.state));
    const state = await sessionOf(b, id);
    expectEveryCallAnswered(state.messages);
    const users = state.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['hold this job', 'and report back']);
    // The interrupted calls ran again on B (same ids), the interrupted turn was answered, and then
    // the new message was added and answered: a person who asked for something gets it finished.
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'user', 'assistant']);
    expect(state.messages[4]!.content).toBe('All done, both parts are finished.');
    expect(state.messages[6]!.content).toBe('ok: and report back');
  }, 60_000);

  it('C killed while tool calls stream: followers on A and B end with it interrupted, no tool part is left input-streaming anywhere, and Resume finishes it', async () => {
    const c = await startHandler(bundle.file, processUrl!, schema, LEASE_MS);
    extra.push(c);
    const id = await newSession(c);
    c.send({ delay: 15 });
    const onC = await openStream(`${c.url}/sessions/${id}/messages`, json({ input: 'stream 10' }));
    await until(() => onC.events.length >= 3, 'the turn to start');
    const followers = [await openStream(`${a.url}/sessions/${id}/events`, { headers: { 'last-event-id': '0' } }), await openStream(`${b.url}/sessions/${id}/events`, { headers: { 'last-event-id': '0' } })];
    // Cut while the second call's arguments stream.
    await until(() => onC.events.filter((e) => e.type === 'tool.input.delta').length >= 12, 'the tool calls to stream');
    await c.kill('SIGKILL');
    expect(followers[0]!.events.some((e) => e.type === 'tool.input.start')).toBe(true);

    // Nobody sends anything: once the dead process's lease ran out, both followers end with the turn interrupted.
    for (const follower of followers) {
      await within(follower.done, 'a follower to end by itself', 20_000);
      expect(follower.events.at(-1)).toMatchObject({ type: 'run.interrupted' });
    }
    for (const [i, on] of [a, b].entries()) {
      const response = await fetch(`${on.url}/sessions/${id}`);
      const session = (await response.json()) as { status: string; state: AgentUIState };
      expect(session.status).toBe('interrupted');
      expect(session.state.finishReason).toBe('interrupted');
      // What a reload shows and what the follower built agree, and nothing is left streaming.
      expect(plain(reduceAll(followers[i]!.events))).toEqual(plain(session.state));
      expect(toolStates(session.state)).not.toContain('input-streaming');
      expect(toolStates(session.state)).not.toContain('running');
    }

    // "Resume" on B: the model is asked again for the turn it never finished, and its calls run.
    const resumed = await openStream(`${b.url}/sessions/${id}/resume`, { method: 'POST' });
    expect(resumed.status).toBe(200);
    await within(resumed.done, 'the resumed turn');
    expect(resumed.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // The follower on A picks it up from where it ended, and ends where a reload is.
    const again = await readSse(await fetch(`${a.url}/sessions/${id}/events`, { headers: { 'last-event-id': String(followers[0]!.events.at(-1)!.seq) } }));
    const state = reduceAll(again.events, reduceAll(followers[0]!.events));
    const reloaded = (await (await fetch(`${a.url}/sessions/${id}`)).json()) as { state: AgentUIState; messages: Message[] };
    expect(plain(state)).toEqual(plain(reloaded.state));
    expect(toolStates(reloaded.state)).toEqual(['done', 'done']);
    expectEveryCallAnswered(reloaded.messages);
  }, 60_000);

  it('a message to a session busy on the other process gets 409 LOUSHO_SESSION_BUSY, as on its own process, and is no failure for onError', async () => {
    const id = await newSession(a);
    const holdsBefore = a.messages.filter((m) => m.type === 'hold').length;
    const onA = turn(a, id, 'hold it');
    await a.next(() => a.messages.filter((x) => x.type === 'hold').length >= holdsBefore + 2);
    const reportedBefore = [a, b].map((p) => p.messages.filter((m) => m.type === 'error').length);
    for (const on of [b, a]) {
      const refused = await fetch(`${on.url}/sessions/${id}/messages`, json({ input: 'me too' }));
      expect(refused.headers.get('content-type')).toMatch(/application\/json/);
      expect(await errorOf(refused)).toMatchObject({ status: 409, code: 'LOUSHO_SESSION_BUSY' });
    }
    a.send('release');
    expect((await onA).events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    // The refused message changed nothing: one user message, the turn's own.
    const state = await sessionOf(b, id);
    expect(state.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['hold it']);
    // A refusal is an answer, not a failure: neither process reported anything to onError.
    expect([a, b].map((p) => p.messages.filter((m) => m.type === 'error').length)).toEqual(reportedBefore);
  });
});
