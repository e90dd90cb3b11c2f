import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: { name: 'node', include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
