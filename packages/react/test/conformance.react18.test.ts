import { describe, expect, it, vi } from 'vitest';
import { version } from 'react';
import { runConformanceSuite } from '@lousho/conformance';
import { reactDriver } from './support/react-driver.js';

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

it('runs on React 18', () => expect(version).toMatch(/^18\./));
runConformanceSuite('React 18', reactDriver({ strict: false }), { describe, it, expect });
runConformanceSuite('React 18 (StrictMode)', reactDriver({ strict: true }), { describe, it, expect });
