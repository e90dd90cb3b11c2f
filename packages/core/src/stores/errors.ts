import { SDKError } from '../errors.js';

/** Codes of the errors stores and durable runs raise, besides the agent's own. */
export const STORE_ERROR_CODES = {
  /** Another run took the session over (its lease ran out, or `agent.resume()` forced it): this one stops. */
  LOUSHO_SESSION_LEASE_LOST: 'LOUSHO_SESSION_LEASE_LOST',
  /** `agent.resume(id)` on a session with no unfinished run. */
  LOUSHO_SESSION_NOT_RESUMABLE: 'LOUSHO_SESSION_NOT_RESUMABLE',
  /** A store file that is not a valid store (damaged, or not a database at all). */
  LOUSHO_STORE_CORRUPT: 'LOUSHO_STORE_CORRUPT',
  /** A store file written by a newer version of the package (its schema is unknown here). */
  LOUSHO_STORE_VERSION: 'LOUSHO_STORE_VERSION',
  /** The store could not be opened or written (permissions, a full disk, a missing driver). */
  LOUSHO_STORE_UNAVAILABLE: 'LOUSHO_STORE_UNAVAILABLE',
} as const;

/** A write by a run that no longer holds the session's lease: nothing was written. */
export class SessionLeaseLostError extends SDKError {
  readonly sessionId: string;
  constructor(sessionId: string) {
    super(STORE_ERROR_CODES.LOUSHO_SESSION_LEASE_LOST, `Session '${sessionId}' was taken over by another run; this run stopped without writing.`, {
      hint: 'Only one run may work on a session at a time. Read the session again to see where the other run is.',
    });
    this.name = 'SessionLeaseLostError';
    this.sessionId = sessionId;
  }
}

export class SessionNotResumableError extends SDKError {
  readonly sessionId: string;
  constructor(sessionId: string, why: string) {
    super(STORE_ERROR_CODES.LOUSHO_SESSION_NOT_RESUMABLE, `Session '${sessionId}' has no unfinished run to resume: ${why}.`, {
      hint: 'Send new input with send()/stream() instead; resume() is for runs that a crash interrupted.',
    });
    this.name = 'SessionNotResumableError';
    this.sessionId = sessionId;
  }
}
