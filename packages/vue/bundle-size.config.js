// Budget of what a browser app loads up front for the Vue binding over HTTP: `useLoushoAgent` (the composable
// and the HTTP client), vue external (see scripts/bundle-size.mjs for how it is measured). The
// in-process transport is loaded with import() only for `{ agent }` sources: a chunk of its own,
// which a page that talks to its agent over HTTP never loads.
export default [
  {
    name: 'Vue path over HTTP: useLoushoAgent + HTTP client (vue external)',
    entry: './src/index.ts',
    imports: ['useLoushoAgent'],
    external: ['vue'],
    limit: 6656,
  },
];
