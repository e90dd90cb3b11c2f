import type { InjectionKey, Ref } from 'vue';
import type { PendingApprovalInfo } from '@lousho/build-ai-agent';

/** The run's pending approval and how to decide it, for cards deep in the transcript (a sub-agent's calls). */
export interface ApprovalActions {
  pending: Readonly<Ref<PendingApprovalInfo | null>>;
  approve: () => void;
  reject: () => void;
}

export const APPROVAL_ACTIONS: InjectionKey<ApprovalActions> = Symbol('approval-actions');
