import { createRequire } from 'node:module';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    name: 'postgres',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // DATABASE_URL, or a throwaway cluster (scripts/postgres-cluster.mjs), or a skip with the reason.
    globalSetup: [createRequire(import.meta.url).resolve('@lousho/test-kit/postgres-setup')],
  },
});
