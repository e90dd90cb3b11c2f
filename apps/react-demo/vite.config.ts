import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// `pnpm --filter react-demo dev` serves the demo with hot reload and sends /api to the demo server
// (start it with `pnpm --filter demo-server start`; DEMO_SERVER_URL when it runs elsewhere).
// TEMP(dev shim): until '@lousho/build-ai-agent/react' exists.
import { existsSync } from 'node:fs';
const hasHook = existsSync(new URL('../../packages/react/src/index.ts', import.meta.url));
const shim = hasHook ? [] : [{ find: '@lousho/build-ai-agent/react', replacement: new URL('./src/dev/use-lousho-agent-shim.ts', import.meta.url).pathname }];

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    // Workspace packages are used from their TypeScript sources: no build of the libraries needed.
    conditions: ['@lousho/source', ...defaultClientConditions],
    dedupe: ['react', 'react-dom'],
    alias: shim,
  },
  server: {
    proxy: { '/api': { target: process.env['DEMO_SERVER_URL'] ?? 'http://127.0.0.1:3000' } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
