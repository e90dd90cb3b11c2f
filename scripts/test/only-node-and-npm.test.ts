import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { pathWithoutPnpm } from './support/path-without-pnpm.js';

// The root commands on a machine with only Node 20 and npm (the workspace is installed here; the
// fresh-clone orders are checked by .ci/run): turbo needs a pnpm binary, and `npx lousho` the root
// package's own bin.
const root = fileURLToPath(new URL('../..', import.meta.url));
const env = { ...process.env, PATH: pathWithoutPnpm() };
const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: root, env, encoding: 'utf8', timeout: 240_000 });

describe('with only Node and npm on PATH', () => {
  it('there is no pnpm (the premise)', () => {
    expect(run('sh', ['-c', 'command -v pnpm']).status).not.toBe(0);
  });

  it('npm run lint (turbo) finds the pinned pnpm and runs the package scripts with it', () => {
    // Lint, not build: it writes nothing that another test may be reading.
    const result = run('npm', ['run', 'lint', '--', '--filter=@lousho/react', '--force']);
    expect(result.stderr + result.stdout).not.toContain('Unable to find package manager binary');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('@lousho/react:lint');
  }, 240_000);

  it('npx lousho --help runs the lousho command (built first when needed)', () => {
    const result = run('npx', ['lousho', '--help']);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^Usage: lousho /m);
    expect(result.stdout).toContain('build [options] [entry]');
  }, 300_000);
});
