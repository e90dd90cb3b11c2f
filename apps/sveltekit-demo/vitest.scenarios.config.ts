import { defineProject } from 'vitest/config';

// The shared scenarios in the built SvelteKit demo, against an app server of their own, at the
// same time as the other demos' (see apps/e2e/vitest.scenarios.config.ts).
export default defineProject({
  test: {
    name: 'svelte-e2e-scenarios',
    include: ['e2e/shared-scenarios.test.ts'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 240_000,
    sequence: { groupOrder: 1 },
    maxWorkers: 3,
  },
});
