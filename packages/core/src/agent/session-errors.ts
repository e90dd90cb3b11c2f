import { ERROR_CODES, SDKError } from '@lousho/protocol';

/** Thrown when a session paused on an approval gets new input. */
export class SessionAwaitingApprovalError extends SDKError {
  readonly sessionId: string;
  readonly approvalId: string;
  constructor(sessionId: string, approvalId: string) {
    super(ERROR_CODES.LOUSHO_SESSION_AWAITING_APPROVAL, `Session '${sessionId}' is waiting for a decision on approval '${approvalId}'.`, {
      hint: 'Resolve or answer the pending approval (agent.approvals.resolve / answer) before sending new input.',
    });
    this.name = 'SessionAwaitingApprovalError';
    this.sessionId = sessionId;
    this.approvalId = approvalId;
  }
}

export function sessionBusyError(sessionId: string, elsewhere = false): SDKError {
  return new SDKError(
    ERROR_CODES.LOUSHO_SESSION_BUSY,
    elsewhere ? `Session '${sessionId}' is running a turn in another process or agent.` : `Session '${sessionId}' is already running a turn.`,
    { hint: 'Wait for the current turn to finish, or stop it first.' },
  );
}
