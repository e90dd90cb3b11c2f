// What `pnpm typecheck` runs (scripts/typecheck.mjs): every workspace package's type check, type
// tests (`test/**/*.test-d.ts`) included.
//
// Most packages type-check with the same options (the base config, `types: ["node"]`), and each of
// their programs would check core's sources, zod's and Node's types again: one `tsc` per package
// spent 268 s of CPU (136 s wall, two at a time) where one program over all of them takes 21 s.
// So those go into one TypeScript program; the packages with options or a checker of their own
// (vue-tsc, svelte-check, the Vite apps' bundler resolution) run their own `typecheck` script,
// two checks at a time. Which package goes where is read from its package.json and tsconfig.json,
// so a new package needs nothing here. Only npm is needed (as for `npm test` on a fresh machine).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** TypeScript from this repository (also for a workspace elsewhere, as in the tests). */
const requireHere = createRequire(fileURLToPath(import.meta.url));
const ts = requireHere('typescript');
const TSC = join(dirname(requireHere.resolve('typescript/package.json')), 'bin/tsc');

/** The one script a package joins the shared program with, and the options it must have. */
export const PLAIN_TSC = 'tsc -p tsconfig.json --noEmit';
const SHARED_OPTIONS = { noEmit: true, types: ['node'] };

/** The folders pnpm-workspace.yaml lists (`dir` or `dir/*` entries) that hold a package. */
export function workspacePackages(root) {
  const yaml = readFileSync(join(root, 'pnpm-workspace.yaml'), 'utf8');
  const list = /^packages:\n((?:[ \t]+-.*\n?)+)/m.exec(yaml)?.[1];
  if (!list) throw new Error('typecheck: no `packages:` list in pnpm-workspace.yaml');
  const patterns = [...list.matchAll(/-\s*['"]?([^'"\s#]+)/g)].map((match) => match[1]);
  const dirs = patterns.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [join(root, pattern)];
    const parent = join(root, pattern.slice(0, -2));
    return readdirSync(parent, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(parent, entry.name));
  });
  return dirs
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) }))
    .map(({ dir, manifest }) => ({ name: manifest.name ?? relative(root, dir), dir, script: manifest.scripts?.typecheck }));
}

/** The package's `include` entries, relative to the root, when it can join the shared program. */
function sharedIncludes(root, { dir, script }) {
  if (script !== PLAIN_TSC) return undefined;
  const { config, error } = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile);
  if (error || typeof config.extends !== 'string' || resolve(dir, config.extends) !== join(root, 'tsconfig.base.json')) return undefined;
  const { compilerOptions = {}, include, extends: _extends, ...rest } = config;
  const sameOptions = JSON.stringify(compilerOptions) === JSON.stringify(SHARED_OPTIONS);
  if (!sameOptions || Object.keys(rest).length > 0 || !Array.isArray(include)) return undefined;
  return include.map((pattern) => relative(root, join(dir, pattern)));
}

/**
 * Which packages go into the shared program (with their `include` entries) and which run their
 * own `typecheck` script. Packages without one are not type-checked.
 */
export function planTypecheck(root) {
  const shared = [];
  const own = [];
  for (const pkg of workspacePackages(root)) {
    if (pkg.script === undefined) continue;
    const include = sharedIncludes(root, pkg);
    if (include) shared.push({ name: pkg.name, dir: pkg.dir, include });
    else own.push({ name: pkg.name, dir: pkg.dir });
  }
  return { shared, own };
}

/** Runs a check with its output held until it ends, so that two checks' lines do not interleave. */
function runCheck({ label, command, args, cwd }, out) {
  return new Promise((done) => {
    const started = Date.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let finished = false;
    const finish = (code) => {
      if (finished) return;
      finished = true;
      out.write(output);
      out.write(`typecheck: ${label} ${code === 0 ? 'passed' : 'FAILED'} (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
      done(code);
    };
    child.once('error', (error) => {
      output += `${error.message}\n`;
      finish(1);
    });
    child.once('close', (code) => finish(code ?? 1));
  });
}

/** Type-checks the workspace at `root`; resolves with the exit code (0 when every check passed). */
export async function typecheckWorkspace({ root, out = process.stdout, parallel = Math.max(2, availableParallelism()) }) {
  const { shared, own } = planTypecheck(root);
  const checks = own.map((pkg) => ({ label: pkg.name, command: 'npm', args: ['run', '--silent', 'typecheck'], cwd: pkg.dir }));
  if (shared.length > 0) {
    // The shared program's config, outside the source tree (paths in it are relative to where it is).
    const configDir = join(root, 'node_modules/.cache/lousho-typecheck');
    mkdirSync(configDir, { recursive: true });
    const configPath = join(configDir, 'tsconfig.json');
    const include = shared.flatMap((pkg) => pkg.include).map((path) => relative(configDir, join(root, path)));
    const config = { extends: relative(configDir, join(root, 'tsconfig.base.json')), compilerOptions: SHARED_OPTIONS, include };
    writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);
    // First: it takes the longest.
    checks.unshift({ label: `${shared.length} packages in one program`, command: process.execPath, args: [TSC, '-p', configPath], cwd: root });
  }
  out.write(`typecheck: one program for ${shared.length} packages; their own script for ${own.map((pkg) => pkg.name).join(', ') || 'none'}\n`);
  const codes = [];
  const worker = async () => {
    for (let check = checks.shift(); check; check = checks.shift()) codes.push(await runCheck(check, out));
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  return codes.every((code) => code === 0) ? 0 : 1;
}
