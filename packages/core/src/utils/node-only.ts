import { ERROR_CODES, SDKError } from '../errors.js';

/**
 * Imports a Node-only module of this package (a path relative to this file, e.g.
 * `../node/skill-folder.js`) on first use. The specifier is a parameter, not a literal, and marked
 * for Vite and webpack, so browser bundlers never follow it into `node:fs`; in a runtime without
 * Node's built-ins the import fails with `LOUSHO_INVALID_CONFIG` saying which feature needs Node.
 */
export async function importNodeOnly<T>(specifier: string, feature: string, hint: string): Promise<T> {
  try {
    return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as T;
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${feature} needs Node (or Bun, Deno) to read or write files, and this runtime could not load it.`, { hint, cause: error });
  }
}
