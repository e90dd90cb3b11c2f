// Budget of what a browser app loads up front for the React binding over HTTP: `useLoushoAgent` (the hook
// and the HTTP client), react external (see scripts/bundle-size.mjs for how it is measured). The
// in-process transport is loaded with import() only for `{ agent }` sources: a chunk of its own,
// which a page that talks to its agent over HTTP never loads.
export default [
  {
    name: 'React path over HTTP: useLoushoAgent + HTTP client (react external)',
    entry: './src/index.ts',
    imports: ['useLoushoAgent'],
    external: ['react'],
    limit: 6656,
  },
];
