import { expect } from 'vitest';
import type { ApprovalRecord } from '../agent/index.js';
import type { CompleteAgentStore, RunStart } from '../stores/index.js';

/** Text that must never be found in what an encrypted store keeps. */
export const MARKER = 'plaintext-marker-7f3a9c';

const usage = { inputTokens: 1, outputTokens: 1, totalTokens: 2, modelCalls: 1, estimated: false, byModel: {} } as never;

function approval(sessionId: string): ApprovalRecord {
  return {
    approvalId: 'ap_1',
    toolCallId: 'call_1',
    toolName: 'send_email',
    displayName: 'Send email',
    args: { body: MARKER },
    kind: 'tool',
    sessionId,
    runId: 'run_1',
    status: 'pending',
    createdAt: 1,
    snapshot: { runId: 'run_1', sessionId, model: 'm', configContext: { input: MARKER }, messages: [{ role: 'user', content: MARKER }], runStart: 0, steps: 1, usage, stepUsage: [], toolCalls: [] },
  };
}

/**
 * Writes every kind of value a store keeps (events, a pending approval, a transcript, run state,
 * step usage, tool calls, an approval and its decision), each carrying `MARKER`, and checks that it
 * all reads back whole. What the store wrote is then for the caller to search.
 */
export async function writeAndReadBack(store: CompleteAgentStore, sessionId = 'enc-1'): Promise<void> {
  await store.sessions.create(sessionId, { owner: 'alice' });
  await store.sessions.appendEvents(sessionId, [
    { runId: 'run_1', event: { type: 'run.start', model: 'm' } },
    { runId: 'run_1', event: { type: 'text.delta', step: 1, delta: `Here: ${MARKER}` } },
    { runId: 'run_1', event: { type: 'text.delta', step: 1, delta: ' and more' } },
  ]);
  await store.sessions.compactEvents?.(sessionId, 3);
  const pending = { approvalId: 'ap_1', toolCallId: 'call_1', toolName: 'send_email', displayName: 'Send email', args: { body: MARKER }, kind: 'tool' as const };
  await store.sessions.update(sessionId, { status: 'awaiting-approval', pendingApproval: pending });

  const start: RunStart = { runId: 'run_1', model: 'm', configContext: { sessionId, input: MARKER }, runStart: 0 };
  expect(await store.checkpoints.acquire(sessionId, 'h1')).toEqual({ acquired: true, checkpoint: undefined });
  await store.checkpoints.save(sessionId, {
    holder: 'h1',
    messages: { keep: 0, append: [{ role: 'user', content: MARKER }, { role: 'assistant', content: `Sure, ${MARKER}` }] },
    run: {
      start,
      progress: { state: 'paused', steps: 1, usage },
      stepUsage: { keep: 0, append: [usage] },
      toolCalls: { keep: 0, append: [{ toolCallId: 'call_0', toolName: 'read', args: { path: MARKER }, result: MARKER, isError: false }] },
    },
  });
  await store.approvals.save(approval(sessionId));
  expect((await store.approvals.claim('ap_1'))?.status).toBe('resolving');
  await store.approvals.complete('ap_1', { approved: true, note: MARKER });

  // Everything reads back as it was written; the plain columns still answer queries.
  const record = await store.sessions.get(sessionId);
  expect(record).toMatchObject({ id: sessionId, owner: 'alice', status: 'awaiting-approval', pendingApproval: pending, lastSeq: 3 });
  expect((await store.sessions.list({ owner: 'alice' })).map((r) => r.id)).toEqual([sessionId]);
  const events = await store.sessions.eventsAfter(sessionId, 0);
  expect(events.map((e) => ('delta' in e ? e.delta : e.type)).join('|')).toContain(`Here: ${MARKER}`);
  const checkpoint = await store.checkpoints.load(sessionId);
  expect(checkpoint?.messages).toEqual([{ role: 'user', content: MARKER }, { role: 'assistant', content: `Sure, ${MARKER}` }]);
  expect(checkpoint?.run).toMatchObject({ runId: 'run_1', configContext: { input: MARKER }, state: 'paused', stepUsage: [usage], toolCalls: [{ args: { path: MARKER }, result: MARKER }] });
  if (store.checkpoints.leaseState) expect(await store.checkpoints.leaseState(sessionId)).toEqual({ leased: true, run: 'paused' });
  const stored = await store.approvals.get('ap_1');
  expect(stored).toMatchObject({ status: 'resolved', args: { body: MARKER }, decision: { approved: true, note: MARKER } });
  expect((await store.approvals.list({ sessionId, status: 'resolved' })).map((r) => r.approvalId)).toEqual(['ap_1']);
  expect(await store.approvals.list({ status: 'pending' })).toEqual([]);
}
