import { createRequire, isBuiltin } from 'node:module';
import { readFile, rm, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

/** Starts from an empty output directory (the previous build's files would linger otherwise). */
export async function freshDir(dir: string): Promise<void> {
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
}

export async function writeText(dir: string, name: string, text: string): Promise<string> {
  await writeFile(join(dir, name), text);
  return name;
}

/** Packages the bundle imports but does not contain (native addons), with the versions installed for `entry`. */
export async function externalDependencies(metafile: Metafile, entry: string): Promise<Record<string, string>> {
  const names = new Set<string>();
  for (const output of Object.values(metafile.outputs)) {
    for (const imported of output.imports) {
      // Node's own modules (`node:fs`, or bare `buffer`) are never npm dependencies.
      if (!imported.external || isBuiltin(imported.path)) continue;
      const parts = imported.path.split('/');
      const name = imported.path.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
      if (!isBuiltin(name)) names.add(name);
    }
  }
  const require = createRequire(entry);
  const found: Record<string, string> = {};
  for (const name of [...names].sort()) {
    try {
      const manifest = JSON.parse(await readFile(require.resolve(`${name}/package.json`), 'utf8')) as { version: string };
      found[name] = manifest.version;
    } catch {
      // Not installed: the code that imports it is never reached by this agent (an optional store).
    }
  }
  return found;
}

/** Native addons cannot be bundled; they stay imports and are installed next to the bundle. */
export const NATIVE_EXTERNALS = ['better-sqlite3', 'pg-native'];
