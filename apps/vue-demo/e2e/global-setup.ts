import { buildIfStale, demoGlobalSetup, startDemoServer } from 'e2e/kit';
import { VUE_DEMO_DIR } from './vue-demo.js';

/**
 * Builds the Vue demo when needed, and runs a demo server of its own (on a fresh SQLite folder) for
 * the whole run. The server does not need the React demo to serve this one at /vue/.
 */
export default demoGlobalSetup({
  label: 'vue-e2e',
  build: async () => {
    const result = await buildIfStale({
      appDir: VUE_DEMO_DIR,
      sources: ['src', 'public', 'index.html', 'vite.config.ts'],
      packages: ['core', 'build-ai-agent', 'flows', 'vue', 'demo-agent'],
      builtMarker: 'dist/index.html',
    });
    return result === 'built' ? 'the Vue demo (apps/vue-demo/dist)' : undefined;
  },
  start: () => startDemoServer(),
});
