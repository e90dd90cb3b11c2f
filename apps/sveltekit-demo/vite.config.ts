import { sveltekit } from '@sveltejs/kit/vite';
import { defaultClientConditions, defaultServerConditions, defineConfig } from 'vite';

// Workspace packages are used from their TypeScript sources (the `@lousho/source` condition), in
// the browser bundle and in the server build alike: no library build needed.
export default defineConfig({
  plugins: [sveltekit()],
  resolve: { conditions: ['@lousho/source', ...defaultClientConditions] },
  ssr: {
    resolve: { conditions: ['@lousho/source', ...defaultServerConditions] },
    // Always bundled (dev and build): Node itself cannot load their TypeScript sources.
    noExternal: [/^@lousho\//],
  },
  build: { sourcemap: true },
});
