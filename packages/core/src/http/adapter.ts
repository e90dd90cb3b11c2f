// The seams of the HTTP handler that a server adapter plugs into (`@lousho/core/adapter`): a request
// read as a `RequestView` instead of a Fetch `Request`, the event stream's chunks, the limits on a
// body. `@lousho/node` builds the Node adapter and the channels on them; they are not part of the
// documented API (`@lousho/build-ai-agent` does not re-export them).
export { viewHandlerOf } from './handler.js';
export { bodyIncomplete, readLimited, tooLarge, type RequestView } from './request-view.js';
export { isExpectedDisconnect, type HttpError } from './errors.js';
export { sseChunksOf, type SseChunks } from './sse-response.js';
export { normalizeBasePath } from './routes.js';
export { concatBytes } from '@lousho/protocol';
export { checkOptionKeys, type OptionKeys } from '@lousho/protocol';
