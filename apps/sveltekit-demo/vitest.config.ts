import { configDefaults, defineProject } from 'vitest/config';

// Browser tests of the built SvelteKit demo (`node build`) in Debian's Chromium. One file at a
// time: they share one app server and a 2-core machine, and each drives a real browser.
export default defineProject({
  test: {
    name: 'svelte-e2e',
    include: ['e2e/**/*.test.ts'],
    // The shared scenarios run in a project of their own (vitest.scenarios.config.ts), beside the other demos'.
    exclude: [...configDefaults.exclude, 'e2e/shared-scenarios.test.ts'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
