import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Workspace packages resolve to their TypeScript sources through the `@lousho/source`
// export condition, so tests never wait for a build.
export default defineConfig({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    // Two test files at a time even on a 2-core machine (vitest's default there is one): many files
    // wait on child processes, servers and timers rather than the CPU.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'apps/sveltekit-demo/vitest.unit.config.ts', 'apps/*/vitest.scenarios.config.ts', 'scripts/vitest.config.ts', 'examples/vitest.config.ts'],
  },
});
