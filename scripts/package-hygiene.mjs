// Package hygiene of every published package (not "private"), as a user's tools would see it:
// `publint --strict` (the package.json fields and files a registry tarball needs) and
// `@arethetypeswrong/cli` on the packed tarball (the types every `exports` entry resolves to, for
// Node's ESM resolution and for bundlers; the packages are ESM-only, so the `esm-only` profile).
// Run after `pnpm build`. Exits non-zero on the first finding, naming the package.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules/.bin', name);
const packDir = mkdtempSync(join(tmpdir(), 'lousho-pack-'));
const published = readdirSync(join(root, 'packages'))
  .map((dir) => ({ dir: join(root, 'packages', dir), manifest: JSON.parse(readFileSync(join(root, 'packages', dir, 'package.json'), 'utf8')) }))
  .filter(({ manifest }) => !manifest.private);

const run = (command, args, cwd) => execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });

let failed = false;
try {
  for (const { dir, manifest } of published) {
    try {
      run(bin('publint'), ['--strict', dir], root);
      const tarball = run('pnpm', ['pack', '--pack-destination', packDir], dir).trim().split('\n').pop();
      run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'table-flipped'], root);
      console.log(`ok   ${manifest.name}`);
    } catch (error) {
      failed = true;
      console.error(`FAIL ${manifest.name}\n${error.stdout ?? ''}${error.stderr ?? error.message}`);
    }
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log(`${published.length} published packages: publint --strict and attw (esm-only) found nothing.`);
