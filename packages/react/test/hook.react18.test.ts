import { expect, it, vi } from 'vitest';
import { version } from 'react';
import { hookTests } from './hook-tests.js';

// React 18 in place of 19 for everything this file imports (the hook's own `import 'react'` too).
vi.mock('react', async () => (await import('./support/react18.js')).asModule((await import('./support/react18.js')).React));
vi.mock('react-dom', async () => (await import('./support/react18.js')).asModule((await import('./support/react18.js')).ReactDOM));
vi.mock('react-dom/client', async () => (await import('./support/react18.js')).asModule((await import('./support/react18.js')).ReactDOMClient));
vi.mock('react-dom/server', async () => (await import('./support/react18.js')).asModule((await import('./support/react18.js')).ReactDOMServer));

it('runs on React 18', () => expect(version).toMatch(/^18\./));
hookTests('React 18');
