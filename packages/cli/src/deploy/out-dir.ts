import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { deployError } from '../errors.js';

/** The file `lousho build` leaves in its output folder: the files it wrote, so a later build may empty it. */
export const OUTPUT_MARKER = '.lousho-output.json';

/** Files a built-in target writes (the outputs of a build before the marker existed may be emptied). */
const KNOWN_OUTPUTS = new Set(['server.mjs', 'server.mjs.map', 'package.json', 'healthcheck.mjs', 'Dockerfile', '.dockerignore', 'worker.mjs', 'worker.mjs.map', 'wrangler.toml']);

/** Most entries looked at in an existing output folder; a bigger folder is not one a build wrote. */
const MAX_ENTRIES = 10_000;

const inside = (dir: string, path: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);

function refuse(outDir: string, why: string): never {
  throw deployError('LOUSHO_DEPLOY_INVALID', `Refusing to use ${outDir} as the output directory: ${why} (it is emptied first).`, 'Pass --out with a folder of its own, e.g. dist/server (the default is .lousho/<target>).');
}

/** Every file and folder under `dir` (relative, `/`-separated); undefined past `MAX_ENTRIES`. */
async function listTree(dir: string): Promise<{ files: string[]; dirs: string[] } | undefined> {
  const files: string[] = [];
  const dirs: string[] = [];
  const pending = [dir];
  while (pending.length > 0) {
    const folder = pending.pop()!;
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      if (files.length + dirs.length >= MAX_ENTRIES) return undefined;
      const path = join(folder, entry.name);
      const name = relative(dir, path).split(sep).join('/');
      // A symbolic link is not followed: it is a file of the folder like any other.
      if (entry.isDirectory()) {
        dirs.push(name);
        pending.push(path);
      } else files.push(name);
    }
  }
  return { files, dirs };
}

async function writtenBefore(outDir: string): Promise<Set<string> | undefined> {
  try {
    const marker = JSON.parse(await readFile(join(outDir, OUTPUT_MARKER), 'utf8')) as { files?: unknown };
    return Array.isArray(marker.files) ? new Set(marker.files.filter((f): f is string => typeof f === 'string')) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Checks that `outDir` may be emptied, then empties (or creates) it. Refused: the project folder or
 * a folder above it, the file system root, a folder holding the entry (or any folder above the
 * entry), and a folder holding any file an earlier `lousho build` did not write (its sources, say).
 */
export async function prepareOutDir(outDir: string, context: { cwd: string; entry: string }): Promise<void> {
  if (dirname(outDir) === outDir) refuse(outDir, 'it is the root of the file system');
  if (inside(outDir, context.cwd)) refuse(outDir, 'it is the project folder or a folder above it');
  if (inside(outDir, context.entry)) refuse(outDir, `it holds the agent module ${relative(context.cwd, context.entry)}`);
  const stat = await lstat(outDir).catch(() => undefined);
  if (stat && !stat.isDirectory()) refuse(outDir, 'it is not a folder');
  if (stat) {
    const tree = await listTree(outDir);
    if (!tree) refuse(outDir, `it holds more than ${MAX_ENTRIES} files`);
    const written = await writtenBefore(outDir);
    const foreign = tree.files.find((file) => file !== OUTPUT_MARKER && !(written ? written.has(file) : KNOWN_OUTPUTS.has(file) || file.startsWith('.lousho/')));
    if (foreign !== undefined) refuse(outDir, `it holds ${foreign}, which lousho build did not write`);
  }
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
}

/** Records what the build wrote, so the next build knows it may empty the folder. */
export async function markOutDir(outDir: string): Promise<void> {
  const tree = await listTree(outDir);
  if (!tree) return;
  await writeFile(join(outDir, OUTPUT_MARKER), `${JSON.stringify({ files: tree.files.filter((f) => f !== OUTPUT_MARKER).sort() }, null, 2)}\n`);
}
