import { defineProject } from 'vitest/config';

// The shared scenarios (kit/scenarios) in the React demo, against a demo server of their own. They
// spend most of their time waiting on the demo model's paced stream, so the three demos' scenario
// files run at the same time: each of those projects holds one file and the same group order and
// worker count, which vitest runs as one group after the Node tests.
export default defineProject({
  test: {
    name: 'e2e-scenarios',
    include: ['test/shared-scenarios.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    sequence: { groupOrder: 1 },
    maxWorkers: 3,
  },
});
