import { defineProject } from 'vitest/config';

// The repository's own scripts (scripts/*.mjs): what `npm run demo` and `npm test` print and do.
export default defineProject({
  test: { name: 'scripts', include: ['test/**/*.test.ts'], testTimeout: 30_000 },
});
