import { buildIfStale, demoGlobalSetup } from 'e2e/kit';
import { startApp } from './app-process.js';
import { APP_DIR } from './sveltekit-demo.js';

/** Builds the SvelteKit demo when needed, and runs `node build` for the whole run. */
export default demoGlobalSetup({
  label: 'svelte-e2e',
  build: async () => {
    const result = await buildIfStale({
      appDir: APP_DIR,
      sources: ['src', 'static', 'svelte.config.js', 'vite.config.ts', 'package.json'],
      packages: ['core', 'build-ai-agent', 'flows', 'svelte', 'demo-agent'],
      // The file adapter-node writes last-ish: the build's age.
      builtMarker: 'build/handler.js',
    });
    return result === 'built' ? 'the SvelteKit demo (apps/sveltekit-demo/build)' : undefined;
  },
  start: startApp,
});
