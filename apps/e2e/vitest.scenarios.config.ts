import { defineProject } from 'vitest/config';

// The shared scenarios (kit/scenarios) in the React demo, against a demo server of their own. They
// spend much of their time waiting on the demo model's paced stream, so the three demos' scenario
// files run at the same time (about 300 s for all three here, against 480 s one after the other):
// each of those projects holds one file, and they share a group order and a worker count (vitest
// requires both), which makes them one group, run after the Node tests.
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
