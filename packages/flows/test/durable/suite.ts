import { emptyUsage, reduceAgentEvents, type AgentStore, type AgentStreamEvent, type AgentUIState, type UIFlowNodePart } from '@lousho/core';
import { describe, expect, it } from 'vitest';
import { createFlowAgent, FlowExecutor } from '../../src/index.js';
import { gate, jobFlow, waitUntil, type StoreKind } from './fixtures.js';

let sessions = 0;
const newSession = () => `job-${Date.now().toString(36)}-${++sessions}`;

/** The durable behaviour of flows, on one kind of store. */
export function durableSuite(kind: StoreKind): void {
  describe(`durable flows on ${kind.name}`, () => {
    it('a run taken over after its process died goes on without running finished nodes again; the dead run is fenced off', async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const ranA: string[] = [];
        const dying = gate();
        const lifeA = FlowExecutor.run(jobFlow(ranA, { 'check/price': dying.promise }), { order: 7 }, { sessionId, store: one });
        lifeA.catch(() => {});
        await waitUntil(() => ranA.includes('check/fraud') && ranA.includes('check/stock'));
        await new Promise((r) => setTimeout(r, 20));

        const ranB: string[] = [];
        const flowB = jobFlow(ranB);
        const storeB = await another();
        const resumed = await FlowExecutor.resume(flowB, { sessionId, store: storeB });
        expect(resumed.finishReason).toBe('awaiting-approval');
        // Only the branch that had not finished, and what came after it.
        expect(ranB).toEqual(['check/price', 'pack']);
        expect(resumed.outputs.check).toEqual({ stock: 'in stock', fraud: 'clean', price: 42 });
        expect(resumed.path).toEqual(['fetch', 'check', 'pack']);

        // The dead process wakes up: its write is refused, and nothing of it lands.
        dying.open();
        await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
        const done = await FlowExecutor.resolve(flowB, { approvalId: resumed.approvalId!, approved: true }, { store: storeB });
        expect(done.path).toEqual(['fetch', 'check', 'pack', 'review', 'ship']);
        expect(ranB).toEqual(['check/price', 'pack', 'ship']);
        const checkpoint = await storeB.checkpoints!.load(sessionId);
        expect(new Set(checkpoint?.run?.toolCalls.map((r) => r.toolCallId))).toEqual(new Set(['fetch', 'check/stock', 'check/fraud', 'check/price', 'check', 'pack', 'review', 'ship']));
        expect(checkpoint?.run?.state).toBe('done');
      } finally {
        await close();
      }
    });

    it("a run whose process died is ended in the log by the next process that takes the session (run.interrupted): the UI shows it ended, the run goes on, a new run works", async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const ranA: string[] = [];
        const dying = gate();
        const lifeA = FlowExecutor.run(jobFlow(ranA, { 'check/price': dying.promise }), { order: 7 }, { sessionId, store: one });
        lifeA.catch(() => {});
        await waitUntil(() => ranA.includes('check/fraud') && ranA.includes('check/stock'));
        await new Promise((r) => setTimeout(r, 20));

        // Another process takes the session over: the dead leg is ended before its own run.start.
        const storeB = await another();
        const flowB = jobFlow([]);
        const resumed = await FlowExecutor.resume(flowB, { sessionId, store: storeB });
        expect(resumed.finishReason).toBe('awaiting-approval');
        const log = await storeB.sessions!.eventsAfter(sessionId, 0);
        expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
        const legs = log.filter((e) => e.type === 'run.start' || e.type === 'run.interrupted' || e.type === 'run.done').map((e) => e.type);
        expect(legs).toEqual(['run.start', 'run.interrupted', 'run.start', 'run.done']);

        // What a UI showed at the takeover: the run ended (interrupted), no node still running.
        const cut = log.findIndex((e) => e.type === 'run.interrupted');
        const atCut = reduce(log.slice(0, cut + 1));
        expect(atCut).toMatchObject({ status: 'idle', finishReason: 'interrupted' });
        expect(nodeParts(atCut).filter((p) => p.state === 'running')).toEqual([]);
        expect(nodeParts(atCut).find((p) => p.toolName === 'fetch')?.state).toBe('done');
        // And after the continuation: every node once, finished, the approval waiting.
        const after = reduce(log);
        expect(after.status).toBe('awaiting-approval');
        const parts = nodeParts(after);
        expect(new Set(parts.map((p) => p.toolCallId)).size).toBe(parts.length);
        expect(parts.filter((p) => p.state !== 'done').map((p) => [p.toolName, p.state])).toEqual([['review', 'awaiting-approval']]);

        dying.open();
        await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
        const done = await FlowExecutor.resolve(flowB, { approvalId: resumed.approvalId!, approved: true }, { store: storeB });
        expect(done.finishReason).toBe('stop');
        // A new run on the session works, in a reply of its own.
        const next = await FlowExecutor.run(flowB, { order: 8 }, { sessionId, store: storeB });
        expect(next.finishReason).toBe('awaiting-approval');
        expect(next.runId).not.toBe(resumed.runId);
        const whole = reduce(await storeB.sessions!.eventsAfter(sessionId, 0));
        expect(whole.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
        expect(whole.messages[3]!.parts.map((p) => (p as UIFlowNodePart).toolName)).toEqual(['fetch', 'check/stock', 'check/fraud', 'check/price', 'check', 'pack', 'review'].map((k) => k.split('/')[0]));
      } finally {
        await close();
      }
    });

    it('a reader that finds a dead run (its lease run out) ends it in the log; the session is interrupted until it goes on', async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const ranA: string[] = [];
        const never = gate();
        const lifeA = FlowExecutor.stream(jobFlow(ranA, { pack: never.promise }), { order: 3 }, { sessionId, store: one });
        lifeA.result.catch(() => {});
        await waitUntil(() => ranA.includes('check/price'));
        await new Promise((r) => setTimeout(r, 20));
        // The process dies: its lease goes (taken from it and let go) without its leg being ended.
        expect((await one.checkpoints!.acquire(sessionId, 'undertaker', { force: true })).acquired).toBe(true);
        await one.checkpoints!.release(sessionId, 'undertaker');

        const storeB = await another();
        const agent = createFlowAgent(jobFlow([]), { store: storeB });
        const state = await agent.sessions.load(sessionId);
        expect(state?.status).toBe('interrupted');
        const log = await storeB.sessions!.eventsAfter(sessionId, 0);
        expect(log.at(-1)).toMatchObject({ type: 'run.interrupted', finishReason: 'interrupted' });
        expect(reduce(log).status).toBe('idle');
        const resumed = await FlowExecutor.resume(jobFlow([]), { sessionId, store: storeB });
        expect(resumed.path).toEqual(['fetch', 'check', 'pack']);
        never.open();
      } finally {
        await close();
      }
    });

    it('a pause survives a restart: another process decides it and the flow goes on, its events numbered on', async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const paused = await FlowExecutor.run(jobFlow([]), { order: 9 }, { sessionId, store: one });
        expect(paused.finishReason).toBe('awaiting-approval');
        const storeB = await another();
        const ran: string[] = [];
        const flowB = jobFlow(ran);
        expect((await FlowExecutor.approvals(flowB, { store: storeB, sessionId })).map((a) => a.approvalId)).toEqual([paused.approvalId]);
        const done = await FlowExecutor.resolve(flowB, { approvalId: paused.approvalId!, approved: true, note: 'ok' }, { store: storeB });
        expect(ran).toEqual(['ship']);
        expect(done.outputs.review).toEqual({ approved: true, note: 'ok' });
        expect(done.usage).toEqual(emptyUsage());
        const events = await storeB.sessions!.eventsAfter(sessionId, 0);
        expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
        expect(events.filter((e) => e.type === 'run.start').map((e) => ('continuation' in e ? e.continuation : false))).toEqual([false, true]);
        expect(events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
        expect((await storeB.sessions!.get(sessionId))?.status).toBe('idle');
      } finally {
        await close();
      }
    });

    it('a decision recorded by a process that died before going on is used by the next leg', async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const paused = await FlowExecutor.run(jobFlow([]), { order: 1 }, { sessionId, store: one });
        await one.approvals!.claim(paused.approvalId!);
        await one.approvals!.complete(paused.approvalId!, { approved: true });
        const ran: string[] = [];
        // run() again with the same input goes on with the recorded decision.
        const done = await FlowExecutor.run(jobFlow(ran), { order: 1 }, { sessionId, store: await another() });
        expect(done.finishReason).toBe('stop');
        expect(ran).toEqual(['ship']);
      } finally {
        await close();
      }
    });

    it('a second run on a session that runs elsewhere is refused as busy', async () => {
      const { one, another, close } = await kind.open();
      try {
        const sessionId = newSession();
        const ran: string[] = [];
        const hold = gate();
        const first = FlowExecutor.run(jobFlow(ran, { fetch: hold.promise }), { order: 2 }, { sessionId, store: one });
        await new Promise((r) => setTimeout(r, 30));
        await expect(FlowExecutor.run(jobFlow([]), { order: 2 }, { sessionId, store: await another() })).rejects.toMatchObject({ code: 'LOUSHO_SESSION_BUSY' });
        hold.open();
        expect((await first).finishReason).toBe('awaiting-approval');
      } finally {
        await close();
      }
    });

    it('an interrupted run: run() with the same input finishes it, another input is refused', async () => {
      const { one, close } = await kind.open();
      try {
        const sessionId = newSession();
        // What a process that died after `fetch` leaves in the store.
        const runId = 'run_ghost';
        const checkpoints = one.checkpoints!;
        const lease = await checkpoints.acquire(sessionId, 'ghost');
        expect(lease.acquired).toBe(true);
        await checkpoints.save(sessionId, {
          holder: 'ghost',
          messages: { keep: 0, append: [{ role: 'user', content: '{"order":5}', metadata: { flowInput: { order: 5 } } }] },
          run: {
            start: { runId, model: 'flow:job', configContext: { sessionId, input: [] }, runStart: 0 },
            progress: { state: 'running', steps: 1, usage: emptyUsage() },
            stepUsage: { keep: 0, append: [] },
            toolCalls: { keep: 0, append: [{ toolCallId: 'fetch', toolName: 'fetch', args: { kind: 'step', iteration: 1 }, result: { items: 3 }, isError: false }] },
          },
        });
        await checkpoints.release(sessionId, 'ghost');

        await expect(FlowExecutor.run(jobFlow([]), { order: 6 }, { sessionId, store: one })).rejects.toMatchObject({ code: 'LOUSHO_FLOW_SESSION_UNFINISHED' });
        const ran: string[] = [];
        const result = await FlowExecutor.run(jobFlow(ran), { order: 5 }, { sessionId, store: one });
        expect(result.runId).toBe(runId);
        expect(ran).not.toContain('fetch');
        expect(result.path).toEqual(['fetch', 'check', 'pack']);
      } finally {
        await close();
      }
    });

    it('a session of another flow, or a checkpoint the flow no longer fits, is refused', async () => {
      const { one, close } = await kind.open();
      try {
        const sessionId = newSession();
        await FlowExecutor.run(jobFlow([]), { order: 3 }, { sessionId, store: one });
        const { FlowBuilder } = await import('../../src/index.js');
        const other = FlowBuilder.create('other').step('x', () => 1).build();
        await expect(FlowExecutor.run(other, null, { sessionId, store: one })).rejects.toMatchObject({ code: 'LOUSHO_FLOW_CHECKPOINT_MISMATCH' });
        const renamed = FlowBuilder.create<{ order: number }>('job').step('fetchAll', () => 1).approval('review').build();
        const paused = await (async () => {
          const approvals = await FlowExecutor.approvals(jobFlow([]), { store: one, sessionId });
          return approvals[0]!;
        })();
        await expect(FlowExecutor.resolve(renamed, { approvalId: paused.approvalId, approved: true }, { store: one })).rejects.toMatchObject({
          code: 'LOUSHO_FLOW_CHECKPOINT_MISMATCH',
        });
      } finally {
        await close();
      }
    });
  });
}

export type { AgentStore };

function reduce(events: readonly AgentStreamEvent[]): AgentUIState {
  let state: AgentUIState | undefined;
  for (const event of events) state = reduceAgentEvents(state, event);
  return state!;
}

const nodeParts = (state: AgentUIState): UIFlowNodePart[] => state.messages.flatMap((m) => m.parts).filter((p): p is UIFlowNodePart => p.type === 'flow-node');
