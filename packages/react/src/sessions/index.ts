// `@lousho/react/sessions`: the thread list hook, on a subpath of its own (a page without a thread list loads none of it).
export { useLoushoSessions, type UseLoushoSessionsChat, type UseLoushoSessionsResult } from './use-lousho-sessions.js';
export type { SessionListOptions, SessionListSource, SessionListState, SessionListResult, SessionSummary, SessionUsage, SessionListStatus } from '@lousho/client/sessions';
