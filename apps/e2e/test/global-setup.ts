import { buildIfStale, demoGlobalSetup, startDemoServer } from '../kit/index.js';
import { REACT_DEMO_DIR } from './react-demo.js';

/** Builds the React demo when needed, and runs the demo server (on a fresh SQLite folder) for the whole run. */
export default demoGlobalSetup({
  label: 'e2e',
  build: async () => {
    const result = await buildIfStale({
      appDir: REACT_DEMO_DIR,
      sources: ['src', 'public', 'index.html', 'vite.config.ts'],
      packages: ['core', 'build-ai-agent', 'flows', 'react', 'demo-agent'],
      builtMarker: 'dist/index.html',
    });
    return result === 'built' ? 'the React demo (apps/react-demo/dist)' : undefined;
  },
  start: () => startDemoServer(),
});
