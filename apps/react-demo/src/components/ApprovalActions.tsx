import { createContext, useContext } from 'react';
import type { PendingApprovalInfo } from '@lousho/build-ai-agent';

/** The run's pending approval and how to decide it, for cards deep in the transcript (a sub-agent's calls). */
export interface ApprovalActions {
  pending: PendingApprovalInfo | null;
  approve: () => void;
  reject: () => void;
}

export const ApprovalActionsContext = createContext<ApprovalActions>({ pending: null, approve: () => {}, reject: () => {} });

export const useApprovalActions = (): ApprovalActions => useContext(ApprovalActionsContext);
