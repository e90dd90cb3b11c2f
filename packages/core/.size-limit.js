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
    gzip: true,
    limit: '5 KB',
    modifyEsbuildConfig: forTheBrowser,
  },
];
