import type { PendingApprovalInfo } from '@lousho/protocol';

/**
 * What a delegation returns when the sub-agent paused on a call that waits for a person. The tool
 * batch sees it instead of a result: the call stays open, and the whole run pauses on this approval.
 */
export class ChildPaused {
  constructor(readonly approval: PendingApprovalInfo) {}
}
