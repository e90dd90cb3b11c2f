// Size budget of the Vue path: what a page that talks to its agent over HTTP ships for
// `useLoushoAgent` (the composable + the HTTP client), vue external, min+gzip. Measured from the
// TypeScript sources (the `@lousho/source` condition), so no build is needed first.
const entry = new URL('./src/index.ts', import.meta.url).pathname;

/** Bundled as an app bundler would for the browser. */
const forTheBrowser = (config) => ({ ...config, format: 'esm', platform: 'browser', conditions: ['@lousho/source'] });

export default [
  {
    // The in-process transport is imported with import() only for `{ agent }` sources, so an app
    // bundler puts it in a chunk of its own that an HTTP-only page never loads: left out here.
    name: 'Vue path over HTTP: useLoushoAgent + HTTP client (vue external)',
    import: { [entry]: '{ useLoushoAgent }' },
    ignore: ['vue', './in-process-chunk.js'],
    gzip: true,
    limit: '6 KB',
    modifyEsbuildConfig: forTheBrowser,
  },
  {
    name: 'useLoushoAgent with the in-process transport too (a page running its agent in process)',
    import: { [entry]: '{ useLoushoAgent }' },
    ignore: ['vue'],
    gzip: true,
    limit: '9 KB',
    modifyEsbuildConfig: forTheBrowser,
  },
];
