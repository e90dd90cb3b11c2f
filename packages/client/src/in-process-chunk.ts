// Loaded with import() only when a client's source has an `agent` (lazy-in-process-transport.ts): a
// page that talks to its agent over HTTP never downloads the in-process transport, because an app
// bundler puts this module in a chunk of its own.
// The default export: the loader reads the module's `default`, a property name that the minifier
// cannot shorten but that is shorter than the function's own.
export { createInProcessTransport as default } from './in-process-transport.js';
