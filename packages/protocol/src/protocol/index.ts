export {
  PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  PROTOCOL_EVENT_NAME,
  sseHeaders,
  encodeSseEvent,
  createSseEventEncoder,
  encodeSseVersion,
  encodeSseComment,
  encodeSseRetry,
} from './sse.js';
export { CodedError, EventStreamError, EVENT_STREAM_ERROR_CODES, type CodedErrorOptions, type EventStreamErrorCode, type EventStreamErrorOptions } from './errors.js';
export { createEventStreamDecoder, type EventStreamDecoder, type EventStreamDecoderOptions } from './decoder.js';
export { parseEventStream, type AgentEventStream, type EventStreamSource, type ParseEventStreamOptions } from './parse-event-stream.js';
