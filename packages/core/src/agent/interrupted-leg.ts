import { stateFromSessionLog } from '@lousho/protocol';
import { reduceAgentEvents } from '@lousho/protocol';
import type { AgentStreamEvent, FinishReason, UnsequencedStreamEvent } from '@lousho/protocol';
import { textOf, type Message } from '@lousho/protocol';
import type { CheckpointStore, SessionStore, StoredCheckpoint, StoredRun, ApprovalStore } from '@lousho/protocol';
import { DurableLeg } from './durable.js';
import { endsLeg } from '@lousho/protocol';
import type { AppendFence, SessionRuntime } from './session-runtime.js';

/** The events that end an abandoned leg, and the run they belong to. */
export interface LegClosing {
  runId: string;
  events: UnsequencedStreamEvent[];
}

/**
 * The end of the log's last leg, when the process running it stopped before writing it (it was
 * killed, or lost the session's lease); undefined when the last leg ended (or nothing is logged).
 * Decided from what the checkpoint holds:
 *  - the run's checkpoint says it ended (`done`, or `paused` on an approval whose `run.done` is
 *    not logged): its end as the leg would have written it (`run.done` or `error`; for a pause,
 *    `approval.requested` if missing, then `run.done`);
 *  - otherwise the leg was cut mid-run (or before its run's first checkpoint): `run.interrupted`,
 *    with what of the UI the checkpoint covers (see docs/events.md).
 *
 * `log` is the whole log in seq order; `transcript` and `runStartIndex` are what the session's
 * UI state is built on (`stateFromSessionLog`).
 */
export function closingOf(log: readonly AgentStreamEvent[], stored: StoredCheckpoint | undefined, runStartIndex: number): LegClosing | undefined {
  let start = log.length;
  while (start-- > 0 && log[start]!.type !== 'run.start') if (endsLeg(log[start]!)) return undefined;
  if (start < 0) return undefined;
  const leg = log[start]!;
  const runId = leg.runId;
  const run = stored?.run?.runId === runId ? stored.run : undefined;
  const transcript = stored?.messages ?? [];
  if (run?.state === 'done' && (run.finishReason !== undefined || run.error)) {
    return { runId, events: [run.error ? { type: 'error', error: run.error } : runDone(run, transcript, run.finishReason!)] };
  }
  const approval = run?.state === 'paused' ? run.paused?.approval : undefined;
  if (approval && !log.some((event) => event.type === 'run.done' && event.approvalId === approval.approvalId)) {
    // The leg that paused stored its pause, not its last events.
    const requested = log.some((event) => event.type === 'approval.requested' && event.approval.approvalId === approval.approvalId);
    return {
      runId,
      events: [...(requested ? [] : [{ type: 'approval.requested' as const, approval }]), { ...runDone(run!, transcript, 'awaiting-approval'), approvalId: approval.approvalId }],
    };
  }
  // Cut mid-run: what the checkpoint covers stays. A run that never reached its first checkpoint
  // has nothing covered (its leg is its only one); a checkpoint of an older version does not say
  // where it stands in the log, so nothing is dropped.
  const through = run ? (run.seq ?? Infinity) : leg.seq - 1;
  const state = stateFromSessionLog(reduceAgentEvents, transcript, Math.min(runStartIndex, transcript.length), log, through);
  const messages = state.messages.length;
  const parts = state.messages[messages - 1]?.parts.length ?? 0;
  return { runId, events: [{ type: 'run.interrupted', finishReason: 'interrupted', usage: run?.usage ?? null, messages, parts }] };
}

function runDone(run: StoredRun, transcript: readonly Message[], finishReason: FinishReason): Extract<UnsequencedStreamEvent, { type: 'run.done' }> {
  return { type: 'run.done', finishReason, usage: run.usage, text: lastReplyText(transcript, run.runStart), steps: run.steps };
}

/** The run's last non-empty assistant text: what `run.done` carries as `text`. */
function lastReplyText(messages: readonly Message[], runStart: number): string {
  for (let i = messages.length - 1; i >= runStart; i--) {
    const message = messages[i]!;
    if (message.role === 'assistant' && textOf(message)) return textOf(message);
  }
  return '';
}

/**
 * Before a leg starts on a session, with the session's lease held: takes the session's log as the
 * store has it (another process may have appended since this one last read it).
 */
export async function syncSessionLog(session: SessionRuntime, store: SessionStore): Promise<void> {
  const record = await store.get(session.id);
  if (!record) return;
  if (record.lastSeq !== session.lastSeq) session.adoptLog(await store.eventsAfter(session.id, 0), record.lastSeq);
  session.runStartIndex ??= record.runStartIndex;
}

/**
 * Then ends the log's last leg if its process stopped before it could (`closingOf`). The closing
 * events are stored and reach the session's followers; they are not part of the new leg's own
 * stream. Resolves once they are stored: the new leg's checkpoints say where they stand in the log.
 */
export async function endAbandonedLeg(session: SessionRuntime, leg: DurableLeg): Promise<LegClosing | undefined> {
  const closing = closingOf(session.log, leg.stored, session.runStartIndex ?? 0);
  if (!closing) return undefined;
  for (const event of closing.events) session.emit(closing.runId, event, leg.fence);
  await session.appending;
  return closing;
}

/** The log's last leg has no end (`run.done`, `error`, `run.interrupted`): it is going on, or its process died. */
export function lastLegOpen(log: readonly AgentStreamEvent[]): boolean {
  for (let i = log.length; i-- > 0; ) {
    if (endsLeg(log[i]!)) return false;
    if (log[i]!.type === 'run.start') return true;
  }
  return false;
}

/**
 * For a reader (`sessions.load`), or a follower in another process, that finds the session's last
 * leg without an end and nobody holding its lease: that leg's process died (or lost its store).
 * Takes the lease for a moment (never forced: a run that holds it is alive) and ends the leg in the
 * log (`endAbandonedLeg`), so no reader or follower waits for a leg nobody runs, and the UI shows
 * what the checkpoint holds. A run cut off mid-run leaves the session `interrupted`: it waits for
 * `resume()` or the next message. Does nothing when someone else holds the lease (they end it).
 */
export async function closeAbandonedLeg(session: SessionRuntime, store: SessionStore, checkpoints: CheckpointStore, approvals: ApprovalStore): Promise<void> {
  if (session.active) return;
  // Another process may have ended the leg since this one last read the log: then there is nothing
  // to close, and this process's followers get that end like any other process's events. Taking the
  // lease anyway, even for a moment, would make a reader elsewhere take the session for one a run
  // is resuming (`running`), after its followers ended with it interrupted.
  if ((await store.eventsAfter(session.id, session.lastSeq)).some(endsLeg)) return;
  const leg = new DurableLeg(checkpoints, approvals, session.id);
  try {
    await leg.acquire();
  } catch {
    return;
  }
  // Held like a leg: this process's view of the session does not move under it (reads of another
  // process's events wait), and no run of this process starts on it meanwhile.
  const me = {};
  session.activeLeg = me;
  try {
    const cut = leg.stored?.run?.state === 'running';
    // Set before the log is synced and before the closing events reach this process's followers:
    // `followSession` ends a follower at `run.interrupted` only when nobody took the session over,
    // and the sync may deliver that event itself (another process closed the leg first; then
    // `endAbandonedLeg` below finds nothing to close, and a follower that saw the event with the
    // session still `running` would wait for ever).
    if (cut) session.status = 'interrupted';
    await syncSessionLog(session, store);
    await leg.finishPause(session.lastSeq);
    const closing = await endAbandonedLeg(session, leg);
    if (!closing) return;
    const run = leg.stored?.run;
    const paused = run?.state === 'paused' && closing.events.some((event) => event.type === 'run.done') ? run.paused?.approval : undefined;
    session.status = cut ? 'interrupted' : paused ? 'awaiting-approval' : 'idle';
    session.pendingApproval = paused ?? null;
    await store.update(session.id, { status: session.status, pendingApproval: session.pendingApproval });
  } finally {
    if (session.activeLeg === me) session.activeLeg = undefined;
    await leg.release();
  }
}

/**
 * For a run host other than `createAgent()` (flows, `@lousho/flows`) that has just taken a
 * session's lease (`stored`: the checkpoint it came with; `fence`: its appends' writer): takes the
 * session's log as the store has it, then ends the log's last leg if the process running it
 * stopped before it could (`run.interrupted` for a run cut off, see `closingOf`), as a new
 * `createAgent()` leg does. The closing events are stored and reach the session's listeners.
 * Resolves once they are stored, with them (undefined when the last leg had ended).
 */
export async function endInterruptedLeg(session: SessionRuntime, store: SessionStore, stored: StoredCheckpoint | undefined, fence: AppendFence): Promise<LegClosing | undefined> {
  await syncSessionLog(session, store);
  const closing = closingOf(session.log, stored, session.runStartIndex ?? 0);
  if (!closing) return undefined;
  for (const event of closing.events) session.emit(closing.runId, event, fence);
  await session.appending;
  return closing;
}
