import { fileURLToPath } from 'node:url';

const at = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const REPO_ROOT = at('../../../');
export const VUE_DEMO_DIR = at('../');
export const DEMO_SERVER_DIR = at('../../demo-server/');
export const SCREENSHOTS_DIR = at('../screenshots/');
