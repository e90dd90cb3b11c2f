import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  // The crash and takeover tests run many restarts of a job; on a busy machine 5 s is not enough.
  test: { name: 'sqlite', include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
