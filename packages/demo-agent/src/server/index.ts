// The server side the demos share (the demo server and the SvelteKit demo's own server): their
// triggers and their session listing. Node only, so never reached from the isomorphic root entry.
export {
  DEFAULT_CRON_INPUT,
  DEFAULT_WEBHOOK_INPUT,
  DEMO_SERVER_WEBHOOK_PORT,
  startDemoTriggers,
  SVELTEKIT_DEMO_WEBHOOK_PORT,
  triggerInfo,
  triggerSettings,
  triggerStartFailure,
  type DemoTriggers,
  type DemoTriggerSettings,
} from './triggers.js';
export {
  answerSessionList,
  listDemoSessions,
  sessionOrigin,
  SESSION_LIST_LIMIT,
  SESSIONS_PATH,
  type ListedSessionStore,
  type SessionListAnswer,
  type SessionOrigin,
  type SessionSummary,
} from './session-list.js';
export { createDemoCoding, type ServerCoding } from './coding.js';
