// Size budget of the Svelte path: what a page that talks to its agent over HTTP ships for
// `loushoAgent` (the store + the HTTP client), svelte external, min+gzip. Measured from the
// TypeScript sources (the `@lousho/source` condition), so no build is needed first.
const entry = new URL('./src/index.ts', import.meta.url).pathname;

/** Bundled as an app bundler would for the browser. */
const forTheBrowser = (config) => ({ ...config, format: 'esm', platform: 'browser', conditions: ['@lousho/source'] });

export default [
  {
    // The in-process transport is imported with import() only for `{ agent }`
    // sources, so an app bundler puts it in a chunk of its own that an HTTP-only page never loads:
    // left out here.
    name: 'Svelte path over HTTP: loushoAgent + HTTP client (svelte external)',
    import: { [entry]: '{ loushoAgent }' },
    ignore: ['svelte', './in-process-chunk.js'],
    gzip: true,
    limit: '6 KB',
    modifyEsbuildConfig: forTheBrowser,
  },
  {
    // The framework-neutral client alone, for comparison: the store's own share is the difference.
    name: 'the HTTP client alone (createHttpAgentClient from @lousho/core)',
    import: { [new URL('../core/src/index.ts', import.meta.url).pathname]: '{ createHttpAgentClient }' },
    ignore: ['./in-process-chunk.js'],
    gzip: true,
    modifyEsbuildConfig: forTheBrowser,
  },
  {
    // Reported, not budgeted: a page that runs its agent in process ships the agent loop anyway.
    name: 'loushoAgent with the in-process transport too (a page running its agent in process)',
    import: { [entry]: '{ loushoAgent }' },
    ignore: ['svelte'],
    gzip: true,
    modifyEsbuildConfig: forTheBrowser,
  },
];
