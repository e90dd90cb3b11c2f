import { fileURLToPath } from 'node:url';
import { demoUrl, inRepo, type DemoTarget } from '../kit/index.js';

/** The React demo, served by the demo server at its root. */
export const reactDemo: DemoTarget = {
  label: 'e2e',
  modes: ['http', 'page'],
  mcpNotes: true,
  sessionsPanel: true,
  threadSidebar: true,
  url: (mode, serverUrl) => demoUrl('/', mode, serverUrl),
  screenshotsDir: fileURLToPath(new URL('../screenshots/', import.meta.url)),
};

export const REACT_DEMO_DIR = inRepo('apps/react-demo');
