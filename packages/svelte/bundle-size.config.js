// Budget of what a browser app loads up front for the Svelte binding over HTTP: `loushoAgent` (the store
// and the HTTP client), svelte external (see scripts/bundle-size.mjs for how it is measured). The
// in-process transport is loaded with import() only for `{ agent }` sources: a chunk of its own,
// which a page that talks to its agent over HTTP never loads.
export default [
  {
    name: 'Svelte path over HTTP: loushoAgent + HTTP client (svelte external)',
    entry: './src/index.ts',
    imports: ['loushoAgent'],
    external: ['svelte'],
    limit: 6656,
  },
];
