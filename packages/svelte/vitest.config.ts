import { svelte } from '@sveltejs/vite-plugin-svelte';
import { svelteTesting } from '@testing-library/svelte/vite';
import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineProject } from 'vitest/config';

// Components run in jsdom with Svelte's browser runtime; test files marked
// `@vitest-environment node` render on the server with `svelte/server` (no `browser` condition).
export default defineProject({
  plugins: [svelte({ compilerOptions: { dev: true } }), svelteTesting({ resolveBrowser: false })],
  resolve: { conditions: ['@lousho/source', 'browser', ...defaultClientConditions] },
  ssr: { resolve: { conditions: ['@lousho/source', ...defaultServerConditions] } },
  test: {
    name: 'svelte',
    environment: 'jsdom',
    include: ['test/**/*.test.ts'],
  },
});
