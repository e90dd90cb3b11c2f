import { fileURLToPath } from 'node:url';

const at = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const APP_DIR = at('../../');
export const REPO_ROOT = at('../../../../');
export const SCREENSHOTS_DIR = at('../screenshots/');
