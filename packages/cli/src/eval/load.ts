import { existsSync, readdirSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isEval, type Eval } from '@lousho/evals';
import { SDKError } from '@lousho/core';

/** An eval and the file it came from. */
export interface LoadedEval {
  file: string;
  eval: Eval<any, any>;
}

const TS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JS = new Set(['.js', '.mjs', '.cjs']);
const SKIP = new Set(['node_modules', 'dist', '.git', '.lousho', 'coverage']);
const EVAL_FILE = /\.eval\.(?:[cm]?ts|[cm]?js)$/;

function invalid(message: string, hint: string): SDKError {
  return new SDKError('LOUSHO_EVAL_INVALID', message, { hint });
}

/** The files to run: those given (files, or directories searched for `*.eval.*`), else every `*.eval.*` under `cwd`. */
export function findEvalFiles(cwd: string, given: readonly string[]): string[] {
  if (given.length === 0) {
    const found = walk(cwd);
    if (found.length === 0) throw invalid(`No eval files (*.eval.ts, *.eval.js) under ${cwd}.`, 'Pass the files to run: lousho eval evals/refunds.eval.ts');
    return found;
  }
  const files: string[] = [];
  for (const entry of given) {
    const path = isAbsolute(entry) ? entry : resolve(cwd, entry);
    if (!existsSync(path)) throw invalid(`The eval file ${path} does not exist.`, 'Pass a file whose default export is defineEval(...) or an array of evals.');
    if (statSync(path).isDirectory()) {
      const inDir = walk(path);
      if (inDir.length === 0) throw invalid(`No eval files (*.eval.ts, *.eval.js) in ${path}.`, 'Name eval files *.eval.ts (or .js), or pass them one by one.');
      files.push(...inDir);
    } else {
      files.push(path);
    }
  }
  return [...new Set(files)];
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.isDirectory()) {
      if (!SKIP.has(entry.name) && !entry.name.startsWith('.')) out.push(...walk(join(dir, entry.name)));
    } else if (EVAL_FILE.test(entry.name)) {
      out.push(join(dir, entry.name));
    }
  }
  return out;
}

/**
 * Imports an eval file and returns its evals. TypeScript files are loaded with tsx's `tsImport`:
 * real ESM semantics through Node's own loader (top-level await, `import.meta`, the package's
 * `exports`), esbuild for the types only (the same transform `lousho build` bundles with), and
 * scoped to this import, so nothing is registered globally.
 */
export async function loadEvalFile(file: string, cwd: string): Promise<LoadedEval[]> {
  const ext = extname(file);
  if (!TS.has(ext) && !JS.has(ext)) throw invalid(`${file} is not a JavaScript or TypeScript module.`, 'Eval files are .ts, .mts, .js or .mjs modules.');
  const url = pathToFileURL(file).href;
  let mod: { default?: unknown };
  try {
    if (TS.has(ext)) {
      const { tsImport } = await import('tsx/esm/api');
      mod = (await tsImport(url, { parentURL: import.meta.url })) as { default?: unknown };
    } else {
      mod = (await import(url)) as { default?: unknown };
    }
  } catch (error) {
    if (SDKError.is(error)) throw error;
    throw invalid(`${shown(file, cwd)} could not be loaded: ${error instanceof Error ? error.message : String(error)}`, 'Fix the error above (a missing import, a syntax error), then run again.');
  }
  // A CommonJS module (or tsx's interop) may nest the default export once more.
  let value = mod.default;
  if (value && typeof value === 'object' && !isEval(value) && !Array.isArray(value) && 'default' in value) value = (value as { default: unknown }).default;
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 || !list.every(isEval)) {
    throw invalid(`${shown(file, cwd)}: the default export is not an eval.`, 'export default defineEval({ ... }) — or an array of evals.');
  }
  return list.map((ev) => ({ file, eval: ev }));
}

export function shown(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel.startsWith('..') || isAbsolute(rel) ? file : rel.split(sep).join('/');
}
