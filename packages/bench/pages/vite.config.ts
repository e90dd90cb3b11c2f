import { fileURLToPath } from 'node:url';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const page = (name: string): string => fileURLToPath(new URL(`./${name}.html`, import.meta.url));

// The rendering benchmark's pages. React's profiling build, so <Profiler onRender> counts commits
// in an otherwise production bundle. The workspace packages are bundled from source.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [react(), svelte({ configFile: false })],
  define: { __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
  resolve: {
    conditions: ['@lousho/source', 'svelte', 'module', 'browser', 'production', 'default'],
    alias: [{ find: /^react-dom\/client$/, replacement: 'react-dom/profiling' }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    minify: false, // readable function names in the profiles
    rollupOptions: { input: { lousho: page('lousho'), 'ai-sdk': page('ai-sdk'), vue: page('vue'), svelte: page('svelte') } },
  },
});
