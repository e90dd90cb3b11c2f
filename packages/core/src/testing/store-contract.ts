import { describe as vitestDescribe, expect, it } from 'vitest';
import type { ApprovalRecord } from '../agent/index.js';
import { leaseStateOf } from '../agent/lease-state.js';
import { replayAfter, type CheckpointWrite, type CompleteAgentStore, type RunProgress, type RunStart } from '../stores/index.js';
import type { Message } from '@lousho/protocol';
import { deleteSession } from '@lousho/store-kit';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, modelCalls: 1, estimated: false, byModel: {} } as never;
const start: RunStart = { runId: 'run_1', model: 'm', configContext: { sessionId: 's', input: 'hi' }, runStart: 0 };
const progress = (steps: number, state: RunProgress['state'] = 'running'): RunProgress => ({ state, steps, usage });
const msg = (role: 'user' | 'assistant', content: string): Message => ({ role, content });

function write(holder: string, keep: number, append: Message[], extra: Partial<CheckpointWrite['run']> = {}): CheckpointWrite {
  return {
    holder,
    messages: { keep, append },
    run: { progress: progress(1), stepUsage: { keep: 0, append: [] }, toolCalls: { keep: 0, append: [] }, ...extra },
  };
}

function approval(id: string, sessionId: string, createdAt: number): ApprovalRecord {
  return {
    approvalId: id,
    toolCallId: `call_${id}`,
    toolName: 'send_email',
    displayName: 'Send email',
    args: { to: 'x' },
    kind: 'tool',
    sessionId,
    runId: 'run_1',
    status: 'pending',
    createdAt,
    snapshot: { runId: 'run_1', sessionId, model: 'm', configContext: { input: 'x' }, messages: [msg('user', 'x')], runStart: 0, steps: 1, usage, stepUsage: [], toolCalls: [] },
  };
}

type StorePart = 'sessions' | 'checkpoints' | 'approvals' | 'threads';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 3));
const codeOf = async (action: () => unknown): Promise<unknown> => {
  try {
    await action();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return 'no error';
};
const said = (text: string) => ({ runId: 'r1', event: { type: 'user.message' as const, message: msg('user', text) } });
/** A run leg's end with the run's usage so far (`costUsd` absent: an unpriced model). */
const done = (runId: string, inputTokens: number, outputTokens: number, costUsd?: number) => ({
  runId,
  event: {
    type: 'run.done' as const,
    finishReason: 'stop' as const,
    steps: 1,
    usage: {
      inputTokens,
      outputTokens,
      totalTokens: inputTokens + outputTokens,
      ...(costUsd !== undefined ? { costUsd } : {}),
      estimated: false,
      modelCalls: 1,
      byModel: {},
      promptTokens: inputTokens,
      completionTokens: outputTokens,
    },
  },
});

/**
 * The behaviour every `AgentStore` must have, run against each implementation. `parts` limits it to
 * the parts a store provides itself (the others may come from any store).
 */
export function storeContract(name: string, open: () => CompleteAgentStore | Promise<CompleteAgentStore>, parts: readonly StorePart[] = ['sessions', 'checkpoints', 'approvals', 'threads']): void {
  const describe = (title: string, body: () => void) => (parts.some((part) => title.endsWith(`: ${part}`)) ? vitestDescribe(title, body) : undefined);
  describe(`${name}: sessions`, () => {
    it('creates a session once: the second create reports the existing owner', async () => {
      const store = await open();
      expect((await store.sessions.create('s1', { owner: 'alice' })).created).toBe(true);
      const again = await store.sessions.create('s1', { owner: 'bob' });
      expect(again.created).toBe(false);
      expect(again.record.owner).toBe('alice');
      expect(await store.sessions.get('nope')).toBeUndefined();
    });

    it('numbers events itself, in order, continuing across appends; the log keeps every run', async () => {
      const store = await open();
      const first = await store.sessions.appendEvents('s1', [
        { runId: 'r1', event: { type: 'run.start', model: 'm' } },
        { runId: 'r1', event: { type: 'step.start', step: 1 } },
      ]);
      expect(first.map((e) => [e.seq, e.runId, e.sessionId])).toEqual([
        [1, 'r1', 's1'],
        [2, 'r1', 's1'],
      ]);
      await store.sessions.appendEvents('s1', [{ runId: 'r1', event: { type: 'text.delta', step: 1, delta: 'x' } }]);
      expect((await store.sessions.eventsAfter('s1', 1)).map((e) => e.seq)).toEqual([2, 3]);
      const second = await store.sessions.appendEvents('s1', [{ runId: 'r2', event: { type: 'run.start', model: 'm' } }]);
      expect(second[0]!.seq).toBe(4);
      expect((await store.sessions.eventsAfter('s1', 0)).map((e) => [e.seq, e.runId])).toEqual([
        [1, 'r1'],
        [2, 'r1'],
        [3, 'r1'],
        [4, 'r2'],
      ]);
      expect((await store.sessions.get('s1'))!.lastSeq).toBe(4);
    });

    it('compacts a finished leg: merged deltas keep the last seq and their pieces, later events stay', async () => {
      const store = await open();
      const delta = (d: string) => ({ runId: 'r1', event: { type: 'text.delta' as const, step: 1, delta: d } });
      await store.sessions.appendEvents('s1', [
        { runId: 'r1', event: { type: 'run.start', model: 'm' } },
        delta('Hel'),
        delta('lo '),
        delta('world'),
        { runId: 'r1', event: { type: 'step.start', step: 2 } },
        { runId: 'r1', event: { type: 'text.delta', step: 2, delta: 'a' } },
        { runId: 'r1', event: { type: 'text.delta', step: 2, delta: 'b' } },
      ]);
      await store.sessions.compactEvents!('s1', 5);
      const after = await store.sessions.eventsAfter('s1', 0);
      expect(after.map((e) => [e.seq, e.type, 'delta' in e ? e.delta : ''])).toEqual([
        [1, 'run.start', ''],
        [4, 'text.delta', 'Hello world'],
        [5, 'step.start', ''],
        [6, 'text.delta', 'a'],
        [7, 'text.delta', 'b'],
      ]);
      // Stored form: a resume point inside the merged delta still finds it, and can be served exactly.
      const inside = await store.sessions.eventsAfter('s1', 2);
      expect(inside.map((e) => e.seq)).toEqual([4, 5, 6, 7]);
      expect(replayAfter(inside, 2)[0]).toMatchObject({ seq: 4, fromSeq: 3, delta: 'lo world' });
      expect((await store.sessions.get('s1'))!.lastSeq).toBe(7);
      await store.sessions.compactEvents!('s1', 7);
      expect(replayAfter(await store.sessions.eventsAfter('s1', 5), 5).map((e) => [e.seq, 'delta' in e ? e.delta : ''])).toEqual([[7, 'ab']]);
      // Compacting again changes nothing; appending goes on numbering after the last event.
      await store.sessions.compactEvents!('s1', 7);
      expect(replayAfter(await store.sessions.eventsAfter('s1', 0), 0).map((e) => e.seq)).toEqual([1, 4, 5, 7]);
      expect((await store.sessions.appendEvents('s1', [delta('!')]))[0]!.seq).toBe(8);
    });

    it('compacts from fromSeq on: the events before it (older legs) are not touched', async () => {
      const store = await open();
      const delta = (runId: string, d: string) => ({ runId, event: { type: 'text.delta' as const, step: 1, delta: d } });
      // An older leg left uncompacted (as a store without compaction would have it), then a new one.
      await store.sessions.appendEvents('s1', [{ runId: 'r1', event: { type: 'run.start', model: 'm' } }, delta('r1', 'a'), delta('r1', 'b')]);
      await store.sessions.appendEvents('s1', [{ runId: 'r2', event: { type: 'run.start', model: 'm' } }, delta('r2', 'c'), delta('r2', 'd')]);
      await store.sessions.compactEvents!('s1', 6, 4);
      const after = await store.sessions.eventsAfter('s1', 0);
      expect(after.map((e) => [e.seq, 'delta' in e ? e.delta : ''])).toEqual([
        [1, ''],
        [2, 'a'],
        [3, 'b'],
        [4, ''],
        [6, 'cd'],
      ]);
    });

    it('withholds a reply an output guardrail blocked: the stored leg never replays it', async () => {
      const store = await open();
      const secret = 'AKIAZ7QWERTYUIOPASDF';
      const delta = (step: number, d: string) => ({ runId: 'r1', event: { type: 'text.delta' as const, step, delta: d } });
      const guardrail = { name: 'secret-scan', stage: 'output' as const, reason: 'the reply contains an AWS access key id.' };
      await store.sessions.appendEvents('s1', [
        { runId: 'r1', event: { type: 'run.start', model: 'm' } },
        { runId: 'r1', event: { type: 'step.start', step: 1 } },
        delta(1, 'Looking'),
        { runId: 'r1', event: { type: 'step.start', step: 2 } },
        delta(2, 'Sure: '),
        delta(2, secret.slice(0, 10)),
        delta(2, secret.slice(10)),
        { runId: 'r1', event: { type: 'run.done', finishReason: 'guardrail', text: '', steps: 2, usage, guardrail } as never },
      ]);
      await store.sessions.compactEvents!('s1', 8);
      const stored = await store.sessions.eventsAfter('s1', 0);
      expect(JSON.stringify(stored)).not.toContain(secret.slice(10));
      expect(JSON.stringify(stored)).not.toContain('Sure');
      const texts = replayAfter(stored, 0).flatMap((e) => (e.type === 'text.delta' ? [[e.step, e.delta]] : []));
      expect(texts).toEqual([
        [1, 'Looking'],
        [2, "[This reply was withheld by the guardrail 'secret-scan'.]"],
      ]);
      // A resume from inside the withheld reply gets none of it.
      expect(JSON.stringify(replayAfter(await store.sessions.eventsAfter('s1', 5), 5))).not.toContain(secret.slice(10));
    });

    it('updates status, pending approval and run start; lists by owner', async () => {
      const store = await open();
      await store.sessions.create('a', { owner: 'alice' });
      await store.sessions.create('b', { owner: 'bob' });
      const pending = { approvalId: 'ap', toolCallId: 'c', toolName: 't', displayName: 't', args: {}, kind: 'tool' as const };
      await store.sessions.update('a', { status: 'awaiting-approval', pendingApproval: pending, runStartIndex: 3 });
      expect(await store.sessions.get('a')).toMatchObject({ status: 'awaiting-approval', pendingApproval: pending, runStartIndex: 3, owner: 'alice' });
      expect((await store.sessions.list({ owner: 'bob' })).map((r) => r.id)).toEqual(['b']);
      await store.sessions.delete('a');
      expect(await store.sessions.get('a')).toBeUndefined();
    });
  });

  describe(`${name}: checkpoints`, () => {
    it('gives the lease to one holder at a time; force takes it over and fences the old holder', async () => {
      const store = await open();
      expect((await store.checkpoints.acquire('s', 'h1')).acquired).toBe(true);
      expect((await store.checkpoints.acquire('s', 'h2')).acquired).toBe(false);
      await store.checkpoints.save('s', write('h1', 0, [msg('user', 'hi')], { start }));
      expect((await store.checkpoints.acquire('s', 'h2', { force: true })).acquired).toBe(true);
      await expect(Promise.resolve().then(() => store.checkpoints.save('s', write('h1', 1, [msg('assistant', 'late')])))).rejects.toMatchObject({
        code: 'LOUSHO_SESSION_LEASE_LOST',
      });
      expect((await store.checkpoints.load('s'))!.messages).toEqual([msg('user', 'hi')]);
      // The lease and the run's state alone, without the transcript (the store's own `leaseState`, or from `load`).
      expect(await leaseStateOf(store.checkpoints, 's')).toEqual({ leased: true, run: 'running' });
      expect(await leaseStateOf(store.checkpoints, 'nobody')).toBeUndefined();
      await store.checkpoints.release('s', 'h2');
      expect(await leaseStateOf(store.checkpoints, 's')).toEqual({ leased: false, run: 'running' });
      expect((await store.checkpoints.acquire('s', 'h3')).acquired).toBe(true);
      expect(await store.checkpoints.renew('s', 'h2')).toBe(false);
      expect(await store.checkpoints.renew('s', 'h3')).toBe(true);
    });

    it('appends, truncates on keep, and keeps the run start until a new run', async () => {
      const store = await open();
      await store.checkpoints.acquire('s', 'h');
      await store.checkpoints.save('s', write('h', 0, [msg('user', 'a'), msg('assistant', 'b')], { start, stepUsage: { keep: 0, append: [{ step: 1 } as never] } }));
      await store.checkpoints.save('s', write('h', 2, [msg('user', 'c')], { stepUsage: { keep: 1, append: [{ step: 2 } as never] } }));
      let stored = await store.checkpoints.load('s');
      expect(stored!.messages.map((m) => m.content)).toEqual(['a', 'b', 'c']);
      expect(stored!.run).toMatchObject({ runId: 'run_1', state: 'running', stepUsage: [{ step: 1 }, { step: 2 }] });
      expect(stored!.leased).toBe(true);
      // An edit in place: keep 1, rewrite from there.
      await store.checkpoints.save('s', write('h', 1, [msg('assistant', 'B'), msg('user', 'c')], { stepUsage: { keep: 2, append: [] } }));
      stored = await store.checkpoints.load('s');
      expect(stored!.messages.map((m) => m.content)).toEqual(['a', 'B', 'c']);
      // A new run replaces the run state but not the transcript.
      await store.checkpoints.save('s', {
        ...write('h', 3, [msg('user', 'd')], { start: { ...start, runId: 'run_2', runStart: 3 } }),
        run: { ...write('h', 3, []).run, start: { ...start, runId: 'run_2', runStart: 3 }, progress: { ...progress(0, 'done'), seq: 42, finishReason: 'stop' } },
      });
      await store.checkpoints.release('s', 'h');
      stored = await store.checkpoints.load('s');
      // Where the checkpoint stands in the log, and how the run ended, come back as written.
      expect(stored).toMatchObject({ leased: false, run: { runId: 'run_2', runStart: 3, state: 'done', stepUsage: [], seq: 42, finishReason: 'stop' } });
      expect(stored!.messages).toHaveLength(4);
    });

    it('refuses a first checkpoint without the run start (LOUSHO_CHECKPOINT_INVALID) and writes nothing', async () => {
      const store = await open();
      await store.checkpoints.acquire('s', 'h');
      await expect(Promise.resolve().then(() => store.checkpoints.save('s', write('h', 0, [msg('user', 'a')])))).rejects.toMatchObject({
        code: 'LOUSHO_CHECKPOINT_INVALID',
        message: expect.stringContaining("session 's'"),
        hint: expect.stringContaining('run.start'),
      });
      expect((await store.checkpoints.load('s'))?.messages ?? []).toEqual([]);
      // The same session takes a proper first checkpoint afterwards.
      await store.checkpoints.save('s', write('h', 0, [msg('user', 'a')], { start }));
      expect((await store.checkpoints.load('s'))!.messages).toEqual([msg('user', 'a')]);
    });
  });

  describe(`${name}: approvals`, () => {
    it('claims a pending approval once; complete and release move it on', async () => {
      const store = await open();
      await store.approvals.save(approval('a1', 's', 2));
      await store.approvals.save(approval('a2', 's', 1));
      expect((await store.approvals.list({ sessionId: 's', status: 'pending' })).map((r) => r.approvalId)).toEqual(['a2', 'a1']);
      const claims = await Promise.all([store.approvals.claim('a1'), store.approvals.claim('a1')]);
      expect(claims.filter(Boolean)).toHaveLength(1);
      await store.approvals.release('a1');
      expect((await store.approvals.get('a1'))!.status).toBe('pending');
      await store.approvals.claim('a1');
      await store.approvals.complete('a1', { approved: false, note: 'no' });
      expect(await store.approvals.get('a1')).toMatchObject({ status: 'resolved', decision: { approved: false, note: 'no' } });
      expect(await store.approvals.claim('a1')).toBeUndefined();
      expect(await store.approvals.claim('missing')).toBeUndefined();
    });
  });

  describe(`${name}: threads`, () => {
    it('lists a principal\'s sessions newest activity first, paged by a cursor that new sessions do not shift', async () => {
      const store = await open();
      const { listPage } = store.sessions;
      if (!listPage) throw new Error('the store has no listPage()');
      const page = (query: Parameters<typeof listPage>[0]) => store.sessions.listPage!(query);
      for (const id of ['s1', 's2', 's3', 's4', 's5']) {
        await store.sessions.create(id, { owner: 'alice' });
        await tick();
      }
      await store.sessions.create('other', { owner: 'bob' });
      await tick();
      await store.sessions.appendEvents('s2', [said('hi')]); // s2 is now the newest activity
      const first = await page({ owner: 'alice', limit: 2 });
      expect(first.sessions.map((r) => r.id)).toEqual(['s2', 's5']);
      expect(first.nextCursor).toEqual(expect.any(String));
      await tick();
      await store.sessions.create('s6', { owner: 'alice' }); // newer than the cursor: not in later pages
      const second = await page({ owner: 'alice', limit: 2, cursor: first.nextCursor! });
      expect(second.sessions.map((r) => r.id)).toEqual(['s4', 's3']);
      const last = await page({ owner: 'alice', limit: 2, cursor: second.nextCursor! });
      expect(last.sessions.map((r) => r.id)).toEqual(['s1']);
      expect(last.nextCursor).toBeUndefined();
      expect((await page({ owner: 'alice', limit: 100 })).sessions.map((r) => r.id)).toEqual(['s6', 's2', 's5', 's4', 's3', 's1']);
      expect((await page({ owner: 'bob', limit: 10 })).sessions.map((r) => [r.id, r.owner, r.status])).toEqual([['other', 'bob', 'idle']]);
      expect((await page({ owner: 'carol', limit: 10 })).sessions).toEqual([]);
    });

    it('refuses a cursor it did not write and a limit out of range, with stable codes', async () => {
      const store = await open();
      expect(await codeOf(() => store.sessions.listPage!({ limit: 10, cursor: 'not a cursor' }))).toBe('LOUSHO_SESSION_CURSOR_INVALID');
      expect(await codeOf(() => store.sessions.listPage!({ limit: 10, cursor: btoa('{"a":1}') }))).toBe('LOUSHO_SESSION_CURSOR_INVALID');
      expect(await codeOf(() => store.sessions.listPage!({ limit: 0 }))).toBe('LOUSHO_SESSION_LIMIT_INVALID');
      expect(await codeOf(() => store.sessions.listPage!({ limit: 101 }))).toBe('LOUSHO_SESSION_LIMIT_INVALID');
    });

    it('titles a session by its first user message (trimmed, bounded); rename sets it without counting as activity', async () => {
      const store = await open();
      await store.sessions.create('s1', { owner: 'alice' });
      expect((await store.sessions.get('s1'))!.title).toBeUndefined();
      await store.sessions.appendEvents('s1', [{ runId: 'r1', event: { type: 'run.start', model: 'm' } }, said(`  Plan   my\ntrip ${'x'.repeat(200)}`)]);
      await store.sessions.appendEvents('s1', [said('a later message')]);
      const titled = (await store.sessions.get('s1'))!;
      expect(titled.title).toBe(`Plan my trip ${'x'.repeat(87)}`);
      await tick();
      await store.sessions.rename!('s1', 'Trip to Lisbon');
      const renamed = (await store.sessions.get('s1'))!;
      expect(renamed.title).toBe('Trip to Lisbon');
      expect(renamed.updatedAt).toBe(titled.updatedAt);
      expect((await store.sessions.listPage!({ owner: 'alice', limit: 5 })).sessions[0]!.title).toBe('Trip to Lisbon');
      await store.sessions.appendEvents('s1', [said('more')]);
      expect((await store.sessions.get('s1'))!.title).toBe('Trip to Lisbon');
      expect(await codeOf(() => store.sessions.rename!('nope', 'x'))).toBe('LOUSHO_SESSION_NOT_FOUND');
      expect(await store.sessions.get('nope')).toBeUndefined();
    });

    it('counts a session\'s usage from its runs\' run.done events: a continuation once with its run, cost while every run is priced', async () => {
      const store = await open();
      await store.sessions.create('u1', { owner: 'alice' });
      expect((await store.sessions.get('u1'))!.usage).toBeUndefined();
      // r1 pauses (approval), then its continuation ends it: its usage is the run's running total.
      await store.sessions.appendEvents('u1', [said('hi'), done('r1', 10, 5, 0.01)]);
      await store.sessions.appendEvents('u1', [done('r1', 30, 12, 0.03)]);
      await store.sessions.appendEvents('u1', [{ runId: 'r2', event: { type: 'run.start', model: 'm' } }, done('r2', 7, 3, 0.005)]);
      const priced = { inputTokens: 37, outputTokens: 15, totalTokens: 52 };
      const usage = (await store.sessions.get('u1'))!.usage!;
      expect(usage).toMatchObject(priced);
      expect(usage.costUsd).toBeCloseTo(0.035, 10);
      const listed = (await store.sessions.listPage!({ owner: 'alice', limit: 5 })).sessions[0]!;
      expect(listed.usage).toEqual(usage);
      // A run with an unpriced model: tokens still add up, the cost is unknown from then on.
      await store.sessions.appendEvents('u1', [done('r3', 1, 1)]);
      expect((await store.sessions.get('u1'))!.usage).toEqual({ inputTokens: 38, outputTokens: 16, totalTokens: 54 });
      // Events without usage change nothing; another session counts on its own.
      await store.sessions.appendEvents('u1', [said('more')]);
      expect((await store.sessions.get('u1'))!.usage).toEqual({ inputTokens: 38, outputTokens: 16, totalTokens: 54 });
      await store.sessions.appendEvents('u2', [done('r4', 2, 2, 0.001)]);
      expect((await store.sessions.get('u2'))!.usage).toEqual({ inputTokens: 2, outputTokens: 2, totalTokens: 4, costUsd: 0.001 });
    });

    it('deletes a session with its events, checkpoint and approvals, and nothing of another session', async () => {
      const store = await open();
      for (const id of ['gone', 'kept']) {
        await store.sessions.create(id, { owner: 'alice' });
        await store.sessions.appendEvents(id, [said('hi')]);
        expect((await store.checkpoints.acquire(id, 'h1')).acquired).toBe(true);
        await store.checkpoints.save(id, write('h1', 0, [msg('user', 'hi')], { start }));
        await store.approvals.save(approval(`ap_${id}`, id, 1));
      }
      await deleteSession(store, 'gone');
      expect(await store.sessions.get('gone')).toBeUndefined();
      expect(await store.sessions.eventsAfter('gone', 0)).toEqual([]);
      expect(await store.checkpoints.load('gone')).toBeUndefined();
      expect(await store.approvals.list({ sessionId: 'gone' })).toEqual([]);
      expect((await store.sessions.listPage!({ owner: 'alice', limit: 10 })).sessions.map((r) => r.id)).toEqual(['kept']);
      expect(await store.sessions.eventsAfter('kept', 0)).toHaveLength(1);
      expect((await store.checkpoints.load('kept'))!.messages).toHaveLength(1);
      expect(await store.approvals.list({ sessionId: 'kept' })).toHaveLength(1);
      expect(await codeOf(() => deleteSession(store, 'gone'))).toBe('LOUSHO_SESSION_NOT_FOUND');
    });
  });
}
