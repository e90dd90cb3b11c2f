// The `@lousho/protocol/wire` entry (re-exported as `@lousho/core/protocol`): the wire both halves
// share. The HTTP handler (server) and the client (browser) both read and write it: the SSE
// codec and `parseEventStream`, the UI state and its reducer, a session's view, following a session,
// the event feed, ids and the client's error codes. Nothing reachable from here imports a Node-only
// module or the agent loop at run time (packages/protocol/test/protocol/isomorphic.test.ts checks it).
//
// Besides core's public names (also in its root entry), it holds the pieces the client is built of:
// those are for @lousho/client, not for apps, and may change with any version.

// Public: the wire codec and the UI state (core's root exports them too).
export * from './index.js';
export * from '../ui-state/index.js';

// Shared by the HTTP handler and the client.
export { CLIENT_ERROR_CODES, type ClientErrorCode } from './client-error-codes.js';
export type { ClientAgent } from './client-agent.js';
export { randomSessionId } from './ids.js';
export { EventFeed, startRun } from './event-feed.js';
export { followSession } from './follow-session.js';
export { sessionUIState } from './session-view.js';

// The client's building blocks: the SSE reader's parts, and the small reducer a page loads up front
// (it loads `reduceAgentEvents` on demand at the first event it does not know).
export { createSseFeed, DEFAULT_MAX_EVENT_SIZE, protocolBlockHandler, STREAM } from './decoder.js';
export { reduceEvent } from '../ui-state/reduce.js';
export { INITIAL } from '../ui-state/snapshot.js';

// Types the client's own types are made of. Phase 2 of issue 46 moves them to src/contracts.
export type { AgentApprovals, AgentSessions, ResumeOptions, SessionState, RunOptions } from '../contracts/agent-session.js';
export type { AgentStreamEvent, FinishReason, SendMode } from '../contracts/events.js';
export type { AgentInput, ContentPart, AttachmentPart } from '../messages.js';
// Uploads in process check what the HTTP handler checks (the in-process transport's chunk only).
export { acceptUpload, attachmentOf, DEFAULT_FILE_TYPES, DEFAULT_MAX_FILE_BYTES } from '../files/accept-upload.js';
export type { SerializedError } from '../errors.js';
