import { getContext, setContext } from 'svelte';
import type { Readable } from 'svelte/store';
import type { PendingApprovalInfo } from '@lousho/build-ai-agent';

/** The run's pending approval and how to decide it, for cards deep in the transcript (a sub-agent's calls). */
export interface ApprovalActions {
  pending: Readable<PendingApprovalInfo | null>;
  approve: () => void;
  reject: () => void;
}

const KEY = Symbol('approval-actions');

export const setApprovalActions = (actions: ApprovalActions): ApprovalActions => setContext(KEY, actions);
export const getApprovalActions = (): ApprovalActions | undefined => getContext<ApprovalActions | undefined>(KEY);
