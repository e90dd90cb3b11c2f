export { memoryStore, MemorySessionStore, MemoryCheckpointStore, DEFAULT_LEASE_MS, DEFAULT_MAX_SESSIONS } from './memory-store.js';
export type { MemoryStore, MemoryStoreOptions } from './memory-store.js';
export { STORE_ERROR_CODES, SessionLeaseLostError, SessionNotResumableError } from '@lousho/store-kit';
export { compactEventLog, replayAfter, MAX_MERGED_DELTA_CHARS } from '@lousho/store-kit';
export type { MaybePromise, SessionRecord, SessionPatch, EventToAppend, SessionStore, RunState, RunStart, RunProgress, ListWrite, CheckpointWrite, StoredRun, StoredCheckpoint, SessionPage, SessionPageQuery, SessionUsage, LeaseResult, LeaseState, CheckpointStore, StoreSignals, AgentStore, CompleteAgentStore } from '@lousho/protocol';
export {
  SESSION_TITLE_MAX_LENGTH,
  SESSION_PAGE_MAX_LIMIT,
  SESSION_PAGE_DEFAULT_LIMIT,
  checkSessionTitle,
  checkPageLimit,
  decodeSessionCursor,
  encodeSessionCursor,
  deleteSession,
  sessionNotFoundError,
  titleFromEvents,
  pageOf,
  pageFromAll,
} from '@lousho/store-kit';
export { tallyUsage, usageOfTally, countsUsage, type SessionUsageTally } from '@lousho/store-kit';
