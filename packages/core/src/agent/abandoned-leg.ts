import { ERROR_CODES, SDKError } from '../errors.js';
import type { PendingApprovalInfo } from '../events/types.js';
import type { CheckpointStore, LeaseState, MaybePromise, SessionStore } from '../stores/types.js';
import type { ApprovalStore } from './approval-store.js';
import { DurableLeg } from './durable.js';
import { endAbandonedLeg, syncSessionLog } from './interrupted-leg.js';
import type { SessionRuntime } from './session-runtime.js';

/** The stores a session lives in. */
export interface SessionStores {
  sessions: SessionStore;
  checkpoints: CheckpointStore;
  approvals: ApprovalStore;
}

/** The session's lease and run state, the light way when the store can (`leaseState`). */
export function leaseStateOf(checkpoints: CheckpointStore, sessionId: string): MaybePromise<LeaseState | undefined> {
  if (checkpoints.leaseState) return checkpoints.leaseState(sessionId);
  const loaded = checkpoints.load(sessionId);
  const view = (stored: Awaited<typeof loaded>): LeaseState | undefined => stored && { leased: stored.leased, ...(stored.run ? { run: stored.run.state } : {}) };
  return loaded instanceof Promise ? loaded.then(view) : view(loaded);
}

/**
 * Ends the last leg of a session whose run was cut off mid-leg (its process died, or lost its
 * store) once its lease has run out, without waiting for anybody to send a message: takes the
 * lease (never forced: a run that holds it is alive), ends the leg in the log as the next leg
 * would (`run.interrupted`, or the pause whose events were lost), stores the session's status
 * (`interrupted`, or `awaiting-approval`) and lets the lease go. The closing events reach this
 * process's followers as they are stored, and the others' through the store.
 *
 * Returns the status it stored, or undefined when nothing was cut off (a run holds the lease, or
 * the latest run is not `running` in its checkpoint).
 */
export async function closeAbandonedLeg(session: SessionRuntime, stores: SessionStores): Promise<'interrupted' | 'awaiting-approval' | undefined> {
  if (session.active) return undefined;
  const leg = new DurableLeg(stores.checkpoints, stores.approvals, session.id);
  try {
    await leg.acquire(false);
  } catch (error) {
    if (SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_SESSION_BUSY) return undefined;
    throw error;
  }
  // Held like a leg: this process's view of the session does not move under it (reads of other
  // processes' events wait), and no run of this process starts on it meanwhile.
  const me = {};
  session.activeLeg = me;
  try {
    if (leg.stored?.run?.state !== 'running') return undefined;
    await syncSessionLog(session, stores.sessions);
    await leg.finishPause(session.lastSeq);
    // (`finishPause` turns a run whose pause was stored without its checkpoint into a paused one.)
    const run = leg.stored?.run as { state: string; paused?: { approval: PendingApprovalInfo } } | undefined;
    const paused = run?.state === 'paused' ? run.paused?.approval : undefined;
    const status = paused ? 'awaiting-approval' : 'interrupted';
    // Set first: a follower of this process decides from it whether the stream ends at the closing event.
    session.status = status;
    session.pendingApproval = paused ?? null;
    await endAbandonedLeg(session, leg);
    if (leg.failure) throw leg.failure.error;
    await stores.sessions.update(session.id, { status, pendingApproval: paused ?? null });
    return status;
  } finally {
    // The transcript may have changed in the store (a pause written): the next load reads it.
    session.stale = true;
    if (session.activeLeg === me) session.activeLeg = undefined;
    await leg.release();
  }
}
