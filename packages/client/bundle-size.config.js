// Budgets of what a browser app loads up front for the framework-neutral client over HTTP (see
// scripts/bundle-size.mjs for how it is measured). `createAgentClient()` loads the in-process
// transport with import() the first time an `{ agent }` client uses it: a chunk of its own, which an
// HTTP-only page never loads.
export default [
  {
    name: 'createAgentClient over HTTP (client core, HTTP transport, SSE parser, reducer; the in-process transport on demand)',
    entry: './src/index.ts',
    imports: ['createAgentClient'],
    limit: 6144,
  },
  {
    name: 'createHttpAgentClient (the same without the in-process loader)',
    entry: './src/index.ts',
    imports: ['createHttpAgentClient'],
  },
  {
    name: 'the thread list (@lousho/client/sessions: loaded only by a page that imports it)',
    entry: './src/sessions/index.ts',
    imports: ['createSessionList'],
  },
];
