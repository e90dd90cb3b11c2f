// Loaded with import() at the first event the entry reducer does not know (client-core.ts), and by
// the in-process transport's chunk: an app bundler puts the full reducer in a chunk of its own, so a
// page whose runs only stream text and plain tool results never downloads it.
export { reduceAgentEvents } from '@lousho/protocol';
