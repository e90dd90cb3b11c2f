import { expect, it, vi } from 'vitest';
import { version } from 'react';
import { version as domVersion } from 'react-dom';
import { hookTests } from './hook-tests.js';

// React 18 in place of 19 for everything this file imports (the hook's own `import 'react'` too).
vi.mock('react', async () => {
  const react18 = await import('./support/react18.js');
  return react18.asModule(react18.React);
});
vi.mock('react-dom', async () => {
  const react18 = await import('./support/react18.js');
  return react18.asModule(react18.ReactDOM);
});
vi.mock('react-dom/client', async () => {
  const react18 = await import('./support/react18.js');
  return react18.asModule(react18.ReactDOMClient);
});
vi.mock('react-dom/server', async () => {
  const react18 = await import('./support/react18.js');
  return react18.asModule(react18.ReactDOMServer);
});

it('runs on React 18', () => {
  expect(version).toMatch(/^18\./);
  expect(domVersion).toMatch(/^18\./);
});
hookTests('React 18');
