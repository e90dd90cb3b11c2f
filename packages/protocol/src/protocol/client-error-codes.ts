// The client's error codes, below both halves: the HTTP handler answers with some of them (a gap in
// a session's log is a 409), and `AgentClientError` (in @lousho/client) carries them.

/** Stable codes of the errors the client and the HTTP handler add to the SDK's own. */
export const CLIENT_ERROR_CODES = {
  /** The requested resume point is no longer (or not yet) in the session's event log: re-read the session. */
  LOUSHO_STREAM_GAP: 'LOUSHO_STREAM_GAP',
  /** The server could not be reached, or the connection broke. */
  LOUSHO_NETWORK_ERROR: 'LOUSHO_NETWORK_ERROR',
  /** The stream of a running turn ended without its end event, and resuming it did not work. */
  LOUSHO_STREAM_INTERRUPTED: 'LOUSHO_STREAM_INTERRUPTED',
  /** The server answered with something the client cannot read. */
  LOUSHO_BAD_RESPONSE: 'LOUSHO_BAD_RESPONSE',
  /** The client stopped following the run (its last subscriber left, or `reset()`): the run goes on. */
  LOUSHO_CLIENT_DETACHED: 'LOUSHO_CLIENT_DETACHED',
  /** `destroy()` was called: the client does nothing any more. */
  LOUSHO_CLIENT_DESTROYED: 'LOUSHO_CLIENT_DESTROYED',
  /** The session is not known (or belongs to someone else). */
  LOUSHO_SESSION_NOT_FOUND: 'LOUSHO_SESSION_NOT_FOUND',
} as const;

/** One of `CLIENT_ERROR_CODES`: the codes `AgentClientError` carries besides the server's own. */
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];
