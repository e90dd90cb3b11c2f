// `@lousho/client/sessions`: the thread list (a principal's sessions, paged, renamed, deleted,
// opened in the chat). A subpath of its own, so a page that does not list threads loads none of it.
export { createSessionList, createSessionListWithTransport } from './session-list.js';
export { createHttpSessionListTransport, createInProcessSessionListTransport } from './session-list-transport.js';
export type {
  SessionList,
  SessionListChat,
  SessionListOptions,
  SessionListResult,
  SessionListSource,
  SessionListState,
  SessionListStatus,
  SessionListTransport,
  SessionSummary,
  SessionSummaryPage,
  SessionUsage,
} from './types.js';
