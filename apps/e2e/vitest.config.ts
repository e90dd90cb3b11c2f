import { configDefaults, defineProject } from 'vitest/config';

// Browser tests of the demos in Debian's Chromium. One file at a time: they share one demo server
// and a 2-core machine, and each drives a real browser.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    // The shared scenarios run in a project of their own (vitest.scenarios.config.ts), beside the other demos'.
    exclude: [...configDefaults.exclude, 'test/shared-scenarios.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
