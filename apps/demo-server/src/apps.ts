import { fileURLToPath } from 'node:url';
import type { StaticApp } from './static-files.js';

const appsDir = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The built demos the server hands out, one line each. A new demo (e.g. Vue at `/vue/`) is one
 * more line here; the most specific mount path wins, so `/` can stay the catch-all.
 */
export const STATIC_APPS: readonly StaticApp[] = [
  { name: 'React demo', mountPath: '/', dir: `${appsDir}react-demo/dist`, buildCommand: 'pnpm --filter react-demo build' },
  { name: 'Vue demo', mountPath: '/vue/', dir: `${appsDir}vue-demo/dist`, buildCommand: 'pnpm --filter vue-demo build' },
];
