import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** @deprecated Every code is in `ERROR_CODES`; use it. This table keeps the codes it always had, with the same values. */
export const STORE_ERROR_CODES = {
  LOUSHO_SESSION_LEASE_LOST: ERROR_CODES.LOUSHO_SESSION_LEASE_LOST,
  LOUSHO_SESSION_NOT_RESUMABLE: ERROR_CODES.LOUSHO_SESSION_NOT_RESUMABLE,
  LOUSHO_STORE_CORRUPT: ERROR_CODES.LOUSHO_STORE_CORRUPT,
  LOUSHO_STORE_VERSION: ERROR_CODES.LOUSHO_STORE_VERSION,
  LOUSHO_STORE_UNAVAILABLE: ERROR_CODES.LOUSHO_STORE_UNAVAILABLE,
} as const;

/** A write by a run that no longer holds the session's lease: nothing was written. */
export class SessionLeaseLostError extends SDKError {
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(ERROR_CODES.LOUSHO_SESSION_LEASE_LOST, `Session '${sessionId}' was taken over by another run; this run stopped without writing.`, {
      hint: 'Only one run may work on a session at a time. Read the session again to see where the other run is.',
    });
    this.name = 'SessionLeaseLostError';
    this.sessionId = sessionId;
  }
}

/**
 * A checkpoint write without `run.start` for a session that has no run yet: the store cannot know
 * which run the progress belongs to, so it writes nothing. Only a hand-written caller of
 * `CheckpointStore.save()` can get here; the executor always starts a session with the run start.
 */
export function missingRunStartError(sessionId: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_CHECKPOINT_INVALID, `The first checkpoint of session '${sessionId}' must carry the run start (write.run.start); nothing was written.`, {
    hint: 'Pass run.start on the first save() of a session (and whenever a new run starts); later saves may carry progress only.',
  });
}

export class SessionNotResumableError extends SDKError {
  readonly sessionId: string;
  constructor(sessionId: string, why: string) {
    super(ERROR_CODES.LOUSHO_SESSION_NOT_RESUMABLE, `Session '${sessionId}' has no unfinished run to resume: ${why}.`, {
      hint: 'Send new input with send()/stream() instead; resume() is for runs that a crash interrupted.',
    });
    this.name = 'SessionNotResumableError';
    this.sessionId = sessionId;
  }
}
