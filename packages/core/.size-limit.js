// Size budget of the framework-neutral HTTP client: what a browser app ships for
// `createHttpAgentClient` (HTTP transport, SSE parser, protocol check, reducer), min+gzip.
// Measured from the TypeScript sources (the `@lousho/source` condition), so no build is needed first.
const entry = new URL('./src/client/index.ts', import.meta.url).pathname;

/** Bundled as an app bundler would for the browser. */
const forTheBrowser = (config) => ({ ...config, format: 'esm', platform: 'browser', conditions: ['@lousho/source'] });

export default [
  {
    name: 'HTTP client: createHttpAgentClient (transport, SSE parser, reducer)',
    import: { [entry]: '{ createHttpAgentClient }' },
    // `createAgentClient()` loads the in-process transport with import(): an app bundler puts it in
    // a chunk of its own, which an HTTP-only page never loads (esbuild without code splitting would
    // instead wrap every module it shares with that chunk): left out here.
    ignore: ['./in-process-chunk.js'],
    gzip: true,
    limit: '5 KB',
    modifyEsbuildConfig: forTheBrowser,
  },
  {
    // Reported, not budgeted: the documented `createAgentClient()`, with the in-process transport's loader.
    name: 'createAgentClient over HTTP (the in-process transport is a chunk of its own)',
    import: { [entry]: '{ createAgentClient }' },
    ignore: ['./in-process-chunk.js'],
    gzip: true,
    modifyEsbuildConfig: forTheBrowser,
  },
];
