import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: { name: 'examples', include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
