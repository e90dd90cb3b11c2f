import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DEMO_SERVER_DIR = join(REPO_ROOT, 'apps/demo-server');

/** A path of the repository (`apps/vue-demo`, `packages/core/src`, ...) made absolute. */
export const inRepo = (relative: string): string => join(REPO_ROOT, relative);
