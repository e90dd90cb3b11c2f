import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// `pnpm --filter react-demo dev` serves the demo with hot reload and sends /api to the demo server
// (start it with `pnpm --filter demo-server start`; DEMO_SERVER_URL when it runs elsewhere).

export default defineConfig({
  base: '/',
  plugins: [react()],
  resolve: {
    // Workspace packages are used from their TypeScript sources: no build of the libraries needed.
    conditions: ['@lousho/source', ...defaultClientConditions],
    dedupe: ['react', 'react-dom'],
  },
  server: {
    proxy: { '/api': { target: process.env['DEMO_SERVER_URL'] ?? 'http://127.0.0.1:3000' } },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
