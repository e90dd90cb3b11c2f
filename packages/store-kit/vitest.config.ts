import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['@lousho/source'] },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  // Property tests run a hundred cases each: on a shared, busy machine 5 s is not enough. No test
  // asserts on time (performance lives in `pnpm bench`), so a longer limit hides nothing.
  test: { name: 'store-kit', include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
