import { createRequire } from 'node:module';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    name: 'flows',
    // The expression property tests run thousands of cases; on a busy CI machine 5 s is not enough.
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    // The PostgreSQL tests use the store tests' database (DATABASE_URL, or a throwaway cluster).
    globalSetup: [createRequire(import.meta.url).resolve('@lousho/test-kit/postgres-setup')],
  },
});
