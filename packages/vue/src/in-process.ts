// Loaded with import() only when a source has an `agent`: a page that talks to its agent over
// HTTP never downloads the in-process transport (bundlers put this module in its own chunk).
export { createInProcessTransport } from '@lousho/core';
