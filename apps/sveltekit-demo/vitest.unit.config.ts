import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

// Node tests of the app's server code (its page `load`), next to the browser tests of
// vitest.config.ts. SvelteKit's Vite plugin roots itself in the working directory, which is the
// repository's when every project runs together; so the module names the server code uses
// are mapped here: `$lib` to src/lib, `$env/dynamic/private` to the process's environment (what
// adapter-node gives it), `$app/environment` to a running server's (not building). Workspace
// packages from their sources.
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));
export default defineProject({
  resolve: {
    conditions: ['@lousho/source'],
    alias: { $lib: here('./src/lib'), '$env/dynamic/private': here('./test/support/env-dynamic-private.ts'), '$app/environment': here('./test/support/app-environment.ts') },
  },
  ssr: { resolve: { conditions: ['@lousho/source'] } },
  test: { name: 'svelte-unit', include: ['test/**/*.test.ts'], testTimeout: 180_000 },
});
