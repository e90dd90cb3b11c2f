import { configDefaults, defineProject } from 'vitest/config';

// Browser tests of the Vue demo in Debian's Chromium, against a demo server of their own. One file
// at a time: they share that server and a 2-core machine, and each drives a real browser.
export default defineProject({
  test: {
    name: 'vue-e2e',
    include: ['e2e/**/*.test.ts'],
    // The shared scenarios run in a project of their own (vitest.scenarios.config.ts), beside the other demos'.
    exclude: [...configDefaults.exclude, 'e2e/shared-scenarios.test.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
  },
});
