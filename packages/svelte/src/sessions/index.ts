// `@lousho/svelte/sessions`: the thread list store, on a subpath of its own (a page without a thread list loads none of it).
export { loushoSessions, type LoushoSessionsStore } from './lousho-sessions.js';
export type { SessionListOptions, SessionListSource, SessionListState, SessionListResult, SessionSummary, SessionUsage, SessionListStatus } from '@lousho/client/sessions';
