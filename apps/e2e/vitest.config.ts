import { defineProject } from 'vitest/config';

// Browser tests of the demos in Debian's Chromium. One file at a time: they share one demo server
// and a 2-core machine, and each drives a real browser.
export default defineProject({
  test: {
    name: 'e2e',
    include: ['test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
