import { mkdirSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runQuietly } from '../lib/run-quietly.mjs';
import { ensureInstalled, needsInstall } from '../lib/workspace.mjs';

/** A writable that keeps what the script printed. */
function captured(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { out, text: () => text };
}

/** A workspace folder with a lockfile and, if `installed`, an install marker newer than it. */
function workspace(installed: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'lousho-setup-'));
  writeFileSync(join(root, 'pnpm-lock.yaml'), 'lockfileVersion: 9\n');
  utimesSync(join(root, 'pnpm-lock.yaml'), new Date(1000_000), new Date(1000_000));
  if (installed) {
    mkdirSync(join(root, 'node_modules'));
    writeFileSync(join(root, 'node_modules/.modules.yaml'), 'ok\n');
  }
  return root;
}

/** A stand-in for `pnpm install`: pages of compiler output, then the marker pnpm writes. */
const noisyInstall = (fail = false): string[] => [
  process.execPath,
  '-e',
  `for (let i = 0; i < 400; i++) console.log('CXX(target) Release/obj.target/better_sqlite3/src/better_sqlite3.o line ' + i);
   console.error('gyp info ok');
   ${fail ? "console.error('ERR_PNPM_FETCH_404 something was not found'); process.exitCode = 3;" : "require('fs').mkdirSync('node_modules', { recursive: true }); require('fs').writeFileSync('node_modules/.modules.yaml', 'x');"}`,
];

describe('the first-run install', () => {
  it('says what is happening and how long it takes, and keeps the install output to itself', async () => {
    const root = workspace(false);
    expect(needsInstall(root)).toBe(true);
    const { out, text } = captured();
    expect(await ensureInstalled({ root, out, install: noisyInstall() })).toBe(true);
    const printed = text();
    expect(printed).toMatch(/^Installing dependencies \(first run only, about 3 minutes[^)]*\)\.\.\.\n/);
    expect(printed).toMatch(/done in \d+ s\.\n$/);
    expect(printed).not.toContain('CXX(target)');
    expect(printed).not.toContain('gyp');
    expect(printed.split('\n').length).toBeLessThanOrEqual(3);
    // Installed: the next run says nothing at all.
    expect(needsInstall(root)).toBe(false);
    const again = captured();
    expect(await ensureInstalled({ root, out: again.out, install: noisyInstall() })).toBe(false);
    expect(again.text()).toBe('');
  });

  it('shows the whole log, and where it is kept, when the install fails', async () => {
    const root = workspace(false);
    const { out, text } = captured();
    await expect(ensureInstalled({ root, out, install: noisyInstall(true) })).rejects.toMatchObject({ exitCode: 3 });
    const printed = text();
    expect(printed).toMatch(/Installing dependencies failed \(exit code 3\) after \d+ s\. Its output \(also in (\S+)\):/);
    expect(printed).toContain('ERR_PNPM_FETCH_404 something was not found');
    expect(printed).toContain('better_sqlite3.o line 399');
    const logPath = /also in (\S+)\)/.exec(printed)![1]!;
    expect(readFileSync(logPath, 'utf8')).toContain('ERR_PNPM_FETCH_404');
  });

  it('a lockfile newer than the install means installing again', () => {
    const root = workspace(true);
    expect(needsInstall(root)).toBe(false);
    utimesSync(join(root, 'pnpm-lock.yaml'), new Date(), new Date(Date.now() + 60_000));
    expect(needsInstall(root)).toBe(true);
  });
});

describe('runQuietly', () => {
  it('a command that cannot start is a failure with its reason', async () => {
    const { out, text } = captured();
    await expect(runQuietly({ label: 'Building', command: '/nonexistent/tool', args: [], out })).rejects.toThrow('Building failed.');
    expect(text()).toMatch(/Building failed \(exit code -1\)[\s\S]*ENOENT/);
  });
});
