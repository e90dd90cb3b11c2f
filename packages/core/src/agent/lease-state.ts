import type { CheckpointStore, LeaseState, MaybePromise } from '@lousho/protocol';

/** The session's lease and run state, the light way when the store can (`leaseState`). */
export function leaseStateOf(checkpoints: CheckpointStore, sessionId: string): MaybePromise<LeaseState | undefined> {
  if (checkpoints.leaseState) return checkpoints.leaseState(sessionId);
  const loaded = checkpoints.load(sessionId);
  const view = (stored: Awaited<typeof loaded>): LeaseState | undefined => stored && { leased: stored.leased, ...(stored.run ? { run: stored.run.state } : {}) };
  return loaded instanceof Promise ? loaded.then(view) : view(loaded);
}
