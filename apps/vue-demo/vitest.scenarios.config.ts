import { defineProject } from 'vitest/config';

// The shared scenarios in the Vue demo, against a demo server of their own, at the same time as
// the other demos' (see apps/e2e/vitest.scenarios.config.ts).
export default defineProject({
  test: {
    name: 'vue-e2e-scenarios',
    include: ['e2e/shared-scenarios.test.ts'],
    globalSetup: ['./e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    sequence: { groupOrder: 1 },
    maxWorkers: 3,
  },
});
