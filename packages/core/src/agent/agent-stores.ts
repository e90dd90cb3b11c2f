import { memoryStore, MemorySessionStore } from '../stores/memory-store.js';
import type { CheckpointStore, SessionStore, StoreSignals, ApprovalStore } from '@lousho/protocol';
import type { CreateAgentConfig } from './types.js';
import type { FileStore } from '@lousho/protocol';

/** Where an agent keeps its sessions, checkpoints and approvals, and how processes tell each other. */
export interface AgentStores {
  sessionStore: SessionStore;
  checkpointStore: CheckpointStore;
  approvalStore: ApprovalStore;
  /** Cross-process signals (a store that has them, e.g. PostgreSQL). */
  signals: StoreSignals | undefined;
  /** Uploaded attachments (`createAgent({ files })`), deleted with their session. */
  files: FileStore | undefined;
}

/** The agent's stores: the parts of `store` that are not given live in memory (the default store). */
export function agentStores(config: Pick<CreateAgentConfig<any>, 'store' | 'approvalStore' | 'files'>): AgentStores {
  const store = config.store ?? {};
  // A fallback that keeps sessions or checkpoints next to a given store's keeps every session: the
  // given part would still have what it forgot.
  const partial = store.sessions !== undefined || store.checkpoints !== undefined;
  const fallback = store.sessions && store.checkpoints && (store.approvals || config.approvalStore) ? undefined : memoryStore(partial ? { maxSessions: Infinity } : {});
  return {
    // The memory session log fences appends by its own memory checkpoints' leases; next to a checkpoint
    // store of another kind it cannot see those leases, so it keeps the log without fencing.
    sessionStore: store.sessions ?? (store.checkpoints ? new MemorySessionStore() : fallback!.sessions),
    checkpointStore: store.checkpoints ?? fallback!.checkpoints,
    approvalStore: config.approvalStore ?? store.approvals ?? fallback!.approvals,
    // Cross-process signals only make sense with the store's own session log (they announce its appends).
    signals: store.sessions ? store.signals : undefined,
    files: config.files,
  };
}
