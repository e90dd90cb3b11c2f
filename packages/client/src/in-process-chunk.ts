// Loaded with import() only when a client's source has an `agent` (lazy-in-process-transport.ts): a
// page that talks to its agent over HTTP never downloads the in-process transport, because an app
// bundler puts this module in a chunk of its own.
export { createInProcessTransport } from './in-process-transport.js';
