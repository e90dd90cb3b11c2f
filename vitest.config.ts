import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `@lousho/source`
// export condition, so tests never wait for a build.
export default defineConfig({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'apps/sveltekit-demo/vitest.unit.config.ts', 'scripts/vitest.config.ts', 'examples/vitest.config.ts'],
  },
});
