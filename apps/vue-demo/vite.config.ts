import vue from '@vitejs/plugin-vue';
import { defaultClientConditions, defineConfig } from 'vite';

// `pnpm --filter vue-demo dev` serves the demo with hot reload at /vue/ and sends /api to the demo
// server (start it with `pnpm --filter demo-server start`; DEMO_SERVER_URL when it runs elsewhere).
// Built, the demo server serves it at /vue/ (apps/demo-server/src/apps.ts).

export default defineConfig({
  base: '/vue/',
  plugins: [vue()],
  resolve: {
    // Workspace packages are used from their TypeScript sources: no build of the libraries needed.
    conditions: ['@lousho/source', ...defaultClientConditions],
    dedupe: ['vue'],
  },
  define: {
    // Compiled templates only: the Options API and devtools hooks stay out of the bundle.
    __VUE_OPTIONS_API__: 'false',
    __VUE_PROD_DEVTOOLS__: 'false',
    __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false',
  },
  server: {
    proxy: { '/api': { target: process.env['DEMO_SERVER_URL'] ?? 'http://127.0.0.1:3000' } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
