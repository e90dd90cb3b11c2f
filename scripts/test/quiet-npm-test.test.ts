import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { stripVTControlCharacters } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newLogFile, runQuietly } from '../lib/run-quietly.mjs';
import { runTests } from '../lib/run-tests.mjs';
import { ensureSystemPackages, TEST_SYSTEM_PACKAGES } from '../lib/workspace.mjs';

const vitest = fileURLToPath(new URL('../../node_modules/vitest/vitest.mjs', import.meta.url));

/** A writable that keeps what was printed (without colours). */
function captured(): { out: PassThrough; text: () => string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { out, text: () => stripVTControlCharacters(text) };
}

/** A command that prints `lines` lines like `prefix 0`, `prefix 1`, ... and exits with `code`. */
const noisy = (prefix: string, lines: number, code = 0) => ({
  command: process.execPath,
  args: ['-e', `for (let i = 0; i < ${lines}; i++) console.log(${JSON.stringify(prefix)} + ' ' + i); process.exitCode = ${code};`],
});

/**
 * A project of its own: 40 passing tests that each print a screenshot notice (as the browser
 * scenarios do), and, with `failing`, one test whose assertion fails.
 */
function fixtureProject(failing: boolean): string {
  const root = mkdtempSync(join(tmpdir(), 'lousho-npm-test-'));
  writeFileSync(join(root, 'vitest.config.mjs'), "export default { test: { globals: true, include: ['*.test.mjs'] } };\n");
  writeFileSync(
    join(root, 'screens.test.mjs'),
    "for (let i = 0; i < 40; i++) it('screen ' + i, () => { console.log('[react] screenshot: /tmp/shots/screen-' + i + '.png'); expect(i).toBe(i); });\n",
  );
  if (failing) writeFileSync(join(root, 'broken.test.mjs'), "it('keeps the order', () => { console.log('the order was', [2, 1]); expect({ order: [2, 1] }).toEqual({ order: [1, 2] }); });\n");
  return root;
}

/** What `npm test` runs before Vitest, stood in for by commands as noisy as the real ones. */
const setup = async ({ out, log }: { out: NodeJS.WritableStream; log: string }) => {
  await runQuietly({ label: 'Installing Debian packages', ...noisy('Unpacking chromium-common', 530), out, log });
};

describe('npm test, quiet by default', () => {
  it('prints a line per step and the summary; the detail goes to the log, whose path it prints', async () => {
    const root = fixtureProject(false);
    const log = newLogFile('npm-test.log');
    const { out, text } = captured();
    const code = await runTests({ root, log, out, setup, typecheck: noisy('typecheck: a package passed', 30), vitest });
    const printed = text();
    expect(code).toBe(0);
    expect(printed.split('\n').length, printed).toBeLessThanOrEqual(20);
    expect(printed).not.toContain('screenshot');
    expect(printed).not.toContain('Unpacking');
    expect(printed).not.toContain('typecheck: a package passed');
    expect(printed).toMatch(/Tests\s+40 passed \(40\)/);
    expect(printed.startsWith(`The full output goes to ${log}\n`)).toBe(true);
    expect(printed.trimEnd().endsWith(`The full output is in ${log}`)).toBe(true);
    const detail = readFileSync(log, 'utf8');
    expect(detail).toContain('Unpacking chromium-common 529');
    expect(detail).toContain('typecheck: a package passed 29');
    expect(detail).toContain('[react] screenshot: /tmp/shots/screen-39.png');
    expect(detail).toMatch(/✓ .*screens\.test\.mjs \(40 tests\)/);
  });

  it('prints a failing test whole: its assertion, the diff and what it printed', async () => {
    const root = fixtureProject(true);
    const log = newLogFile('npm-test.log');
    const { out, text } = captured();
    const code = await runTests({ root, log, out, setup, typecheck: noisy('typecheck: a package passed', 30), vitest });
    const printed = text();
    expect(code).toBe(1);
    expect(printed).toContain('broken.test.mjs > keeps the order');
    expect(printed).toContain('expected { order: [ 2, 1 ] } to deeply equal { order: [ 1, 2 ] }');
    expect(printed).toMatch(/- Expected[\s\S]*\+ Received/);
    expect(printed).toContain('the order was [ 2, 1 ]');
    expect(printed).not.toContain('screenshot');
    expect(printed).toMatch(/Tests\s+1 failed \| 40 passed \(41\)/);
    const detail = readFileSync(log, 'utf8');
    expect(detail).toMatch(/✗ .*broken\.test\.mjs \(1 tests, 1 failed\)/);
    expect(detail).toContain('expected { order: [ 2, 1 ] } to deeply equal { order: [ 1, 2 ] }');
  });

  it('stops at a failing step and prints its output whole (and not the steps before)', async () => {
    const root = fixtureProject(false);
    const log = newLogFile('npm-test.log');
    const { out, text } = captured();
    const code = await runTests({ root, log, out, setup, typecheck: noisy('error TS2322: not assignable', 12, 2), vitest });
    const printed = text();
    expect(code).toBe(2);
    expect(printed).toMatch(/Type-checking every package failed \(exit code 2\)/);
    expect(printed).toContain('error TS2322: not assignable 11');
    expect(printed).not.toContain('Unpacking');
    expect(printed).not.toContain('Running the tests');
  });
});

describe("the tests' Debian packages", () => {
  it('include bubblewrap (the sandbox tests run against the real bwrap) beside Chromium', () => {
    expect(TEST_SYSTEM_PACKAGES.map((pkg) => [pkg.name, pkg.file])).toEqual([
      ['chromium', '/usr/bin/chromium'],
      ['bubblewrap', '/usr/bin/bwrap'],
    ]);
  });

  /** A stand-in for apt-get: records its arguments, and prints as much as the real one. */
  function fakeAptGet(): { aptGet: string; calls: () => string } {
    const dir = mkdtempSync(join(tmpdir(), 'lousho-apt-'));
    const aptGet = join(dir, 'apt-get');
    writeFileSync(aptGet, `#!/bin/sh\necho "$@" >> ${dir}/calls\ni=0; while [ $i -lt 300 ]; do echo "Setting up package-$i ..."; i=$((i+1)); done\n`);
    chmodSync(aptGet, 0o755);
    return { aptGet, calls: () => readFileSync(join(dir, 'calls'), 'utf8') };
  }

  it('as root, installs the missing ones with one apt-get install, quietly', async () => {
    const { aptGet, calls } = fakeAptGet();
    const { out, text } = captured();
    const log = newLogFile();
    const installed = await ensureSystemPackages({ out, log, aptGet, isRoot: true, exists: (file: string) => file !== '/usr/bin/bwrap' });
    expect(installed).toEqual(['bubblewrap']);
    expect(calls()).toBe('update -qq\ninstall -y -qq bubblewrap\n');
    expect(text()).toMatch(/^Installing Debian's bubblewrap \(the sandbox tests\) with apt-get\.\.\.\n {2}done in \d+ s\.\n$/);
    expect(readFileSync(log, 'utf8')).toContain('Setting up package-299');
  });

  it('says nothing when they are there, and how to install them when it may not', async () => {
    const present = captured();
    expect(await ensureSystemPackages({ out: present.out, isRoot: true, exists: () => true })).toEqual([]);
    expect(present.text()).toBe('');
    const notRoot = captured();
    expect(await ensureSystemPackages({ out: notRoot.out, isRoot: false, exists: () => false })).toEqual(['chromium', 'bubblewrap']);
    expect(notRoot.text()).toContain('sudo apt-get install -y chromium bubblewrap');
  });
});
