// @lousho/protocol: what both halves of Lousho share, at the bottom of the workspace (it imports no
// package). The browser half (@lousho/client) and the server half (@lousho/core) both build on it.
//
// - The wire: the SSE codec, `parseEventStream`, the UI state and its reducer, a session's view, the
//   event feed, following a session, ids, the client's error codes (also `@lousho/protocol/wire`,
//   which is what `@lousho/core/protocol` re-exports).
// - The error table and `SDKError` (`@lousho/protocol/errors`), the transcript's messages
//   (`@lousho/protocol/messages`).
// - The contracts: the types every part shares (events, messages, tools, providers, stores, ...).
//
// The subpaths exist so @lousho/core re-exports exactly what it exported before this package existed
// (its root and `@lousho/core/protocol`); apps import all of it through @lousho/build-ai-agent.
export * from './protocol/entry.js';
export * from './errors.js';
export * from './messages.js';

// What the server half builds on besides the wire: the SSE parser the providers read model streams
// with, and a session's UI state rebuilt from its log (what an interrupted run covered).
export { createSseParser } from './protocol/decoder.js';
export { stateFromSessionLog } from './protocol/session-view.js';
// The queue of a session whose agent keeps one (the HTTP handler's queue route).
export { queueOf } from './protocol/session-queue.js';

// Options objects are checked the same way everywhere: an unknown key is an error naming the closest option.
export * from './options/check-option-keys.js';
export * from './options/closest-name.js';

// Bytes, encryption and copying helpers the stores and the HTTP handler share (isomorphic: Web Crypto).
export * from './utils/bytes.js';
export * from './utils/encryption.js';
export * from './utils/shared-shape.js';

// Event helpers both halves use: numbering an event, what ends a leg, piping a run's events.
export * from './events/stamp.js';
export * from './events/ends-leg.js';
export * from './events/pipe.js';
// The text that stands for a reply an output guardrail withheld (the transcript and the UI state agree on it).
export * from './guardrails/withheld.js';
// What a defined tool is, as a type (the UI state types its tool parts from it).
export type * from './tools/types.js';

// The contracts.
export type * from './contracts/agent-session.js';
export type * from './contracts/budget.js';
export type * from './contracts/errors.js';
export type * from './contracts/events.js';
export type * from './contracts/files.js';
export type * from './contracts/guardrails.js';
export type * from './contracts/hooks.js';
export type * from './contracts/messages.js';
export type * from './contracts/models.js';
export type * from './contracts/providers.js';
export type * from './contracts/run-snapshot.js';
export type * from './contracts/sandbox.js';
export type * from './contracts/skills.js';
export type * from './contracts/spec.js';
export type * from './contracts/storage.js';
export type * from './contracts/stores.js';
export type * from './contracts/subagents.js';
export type * from './contracts/tools.js';
export type * from './contracts/tracing.js';
export type * from './contracts/usage.js';

// Uploaded files: reading a body within a limit, ids and names, and the signature check of a type
// (the HTTP handler and the in-process transport check an upload the same way).
export { limitedChunks, chunksOf, readAll, newFileId, isFileId, cleanFileName, fileTooLarge, fileNotFound, unresolvedAttachment } from './files/file-bytes.js';
export { mediaTypeOfBytes, bytesMatchType, essenceOf, SIGNATURE_BYTES } from './files/signature.js';
export type { Upload, UploadLimits } from './files/accept-upload.js';
