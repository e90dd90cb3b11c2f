import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: {
    name: 'flows',
    // The expression property tests run thousands of cases; on a busy CI machine 5 s is not enough.
    testTimeout: 30_000,
    include: ['test/**/*.test.ts'],
    // The PostgreSQL tests use the database core's tests set up (DATABASE_URL, or a throwaway cluster).
    globalSetup: ['../core/test/postgres/global-setup.ts'],
  },
});
