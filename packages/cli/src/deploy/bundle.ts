import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildFailure, BuildOptions, Message, Metafile } from 'esbuild';
import type { DeploymentBuildContext } from '@lousho/core';
import { deployError } from '../errors.js';

type Esbuild = typeof import('esbuild');

/** esbuild, loaded when a build needs it (it is an optional peer dependency). */
export async function loadEsbuild(): Promise<Esbuild> {
  try {
    return await import('esbuild');
  } catch {
    throw deployError('LOUSHO_DEPLOY_BUNDLER_MISSING', 'lousho build bundles with esbuild, which is not installed.', 'Install it next to your project: npm i -D esbuild');
  }
}

/** A runtime module of this package (`.js` when built, `.ts` in the sources). */
export function runtimeModule(name: 'node-server' | 'worker'): string {
  const base = fileURLToPath(new URL(`../runtime/${name}`, import.meta.url));
  return existsSync(`${base}.js`) ? `${base}.js` : `${base}.ts`;
}

/** Writes the generated entry next to the output (esbuild resolves its imports from there). */
export async function writeEntry(context: DeploymentBuildContext, name: string, source: string): Promise<string> {
  const file = join(context.outDir, '.lousho', name);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, source);
  return file;
}

export const importPath = (file: string): string => JSON.stringify(file.split('\\').join('/'));

/** Runs esbuild; its errors become one LOUSHO_DEPLOY_BUNDLE_FAILED with each message and where it came from. */
export async function bundle(context: DeploymentBuildContext, options: BuildOptions): Promise<Metafile> {
  const esbuild = await loadEsbuild();
  try {
    const result = await esbuild.build({ bundle: true, metafile: true, logLevel: 'silent', absWorkingDir: context.cwd, ...options });
    return result.metafile!;
  } catch (error) {
    const failure = error as Partial<BuildFailure>;
    if (!Array.isArray(failure.errors)) throw error;
    throw bundleFailure(context, failure.errors);
  }
}

function bundleFailure(context: DeploymentBuildContext, errors: readonly Message[]) {
  const builtins = errors.filter((message) => message.notes.some((note) => note.text.includes('built into node')) || /Could not resolve "node:/.test(message.text));
  const where = (message: Message) => (message.location ? ` (imported by ${relative(context.cwd, join(context.cwd, message.location.file))}:${message.location.line})` : '');
  if (builtins.length > 0) {
    return deployError(
      'LOUSHO_DEPLOY_NODE_BUILTIN',
      `The workers bundle cannot use Node built-ins:\n${builtins.map((m) => `  ${m.text.replace(/^Could not resolve /, '')}${where(m)}`).join('\n')}`,
      "Edge runtimes have no Node built-ins: import only isomorphic entries (not /node, /sqlite, /postgres or /triggers), or use --target node.",
    );
  }
  return deployError('LOUSHO_DEPLOY_BUNDLE_FAILED', `Bundling failed:\n${errors.map((m) => `  ${m.text}${where(m)}`).join('\n')}`, 'Fix the errors above in the agent module, then build again.');
}
