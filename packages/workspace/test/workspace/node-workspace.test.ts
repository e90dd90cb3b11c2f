import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync, existsSync, linkSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ToolExecutionContext } from '@lousho/core';
import { createFsTools, createShellTool, NodeWorkspace } from '../../src/index.js';

// Commands are confined by bubblewrap: installed in CI (where these must run), skipped elsewhere without it.
const bwrap = existsSync('/usr/bin/bwrap');
if (!bwrap && process.env.CI !== 'true') console.warn('bubblewrap (/usr/bin/bwrap) is not installed: the NodeWorkspace command tests are skipped.');

const ctx: ToolExecutionContext = { toolCallId: 'call_1', messages: [] };
let base: string;
let root: string;
let ws: NodeWorkspace;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'lousho-ws-'));
  root = join(base, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  writeFileSync(join(root, 'src/app.ts'), 'export const a = 1;\nexport const b = 2;\n');
  writeFileSync(join(base, 'secret.txt'), 'outside the root');
  mkdirSync(join(base, 'project-other'));
  writeFileSync(join(base, 'project-other/x.txt'), 'sibling with the same prefix');
  symlinkSync(join(base, 'secret.txt'), join(root, 'link-out'));
  symlinkSync('/etc', join(root, 'etc'));
  symlinkSync('../secret.txt', join(root, 'src/relative-out'));
  symlinkSync('app.ts', join(root, 'src/link-in'));
  symlinkSync(join(base, 'missing-target'), join(root, 'dangling'));
  symlinkSync(base, join(root, 'up'));
  ws = new NodeWorkspace({ root });
});

afterAll(() => rmSync(base, { recursive: true, force: true }));

const refused = { code: 'LOUSHO_WORKSPACE_PATH_OUTSIDE' };

describe('NodeWorkspace: paths stay inside the root', () => {
  it.each([
    ['../secret.txt'],
    ['src/../../secret.txt'],
    ['./../project-other/x.txt'],
    ['/etc/passwd'],
    ['~/.ssh/id_rsa'],
    ['link-out'],
    ['etc/passwd'],
    ['src/relative-out'],
    ['up/secret.txt'],
    ['src/app.ts\0.png'],
  ])('refuses to read %s', async (path) => {
    await expect(ws.readFile(path)).rejects.toMatchObject(refused);
  });

  it('refuses an absolute path that only differs from the root in case, or shares its prefix', async () => {
    await expect(ws.readFile(join(root.toUpperCase(), 'src/app.ts'))).rejects.toMatchObject(refused);
    await expect(ws.readFile(`${root}-other/x.txt`)).rejects.toMatchObject(refused);
    await expect(ws.readFile(`${root}/../secret.txt`)).rejects.toMatchObject(refused);
  });

  it('accepts relative paths, absolute paths inside the root, and symlinks that stay inside', async () => {
    const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    expect(text(await ws.readFile('src/app.ts'))).toContain('export const a');
    expect(text(await ws.readFile(join(root, 'src/app.ts')))).toContain('export const a');
    expect(text(await ws.readFile('src/./../src/app.ts'))).toContain('export const a');
    expect(text(await ws.readFile('src/link-in'))).toContain('export const a');
    // A link that leaves the root and comes back in ends at a file inside it.
    expect(text(await ws.readFile('up/project/src/app.ts'))).toContain('export const a');
  });

  it('refuses writes that would leave the root, through .., links or dangling links, and creates nothing outside', async () => {
    for (const path of ['../escaped.txt', 'up/escaped.txt', 'link-out', 'dangling', 'etc/evil.conf', '/tmp/escaped.txt']) {
      await expect(ws.writeFile(path, 'x'), path).rejects.toMatchObject(refused);
    }
    expect(existsSync(join(base, 'escaped.txt'))).toBe(false);
    expect(existsSync(join(base, 'missing-target'))).toBe(false);
    expect(readFileSync(join(base, 'secret.txt'), 'utf8')).toBe('outside the root');
  });

  it('writes inside the root, creating directories', async () => {
    await ws.writeFile('new/dir/file.txt', 'made');
    expect(readFileSync(join(root, 'new/dir/file.txt'), 'utf8')).toBe('made');
    // Writing through a link that stays inside writes the link's target.
    await ws.writeFile('src/link-in', 'export const a = 3;\n');
    expect(readFileSync(join(root, 'src/app.ts'), 'utf8')).toBe('export const a = 3;\n');
    expect(lstatSync(join(root, 'src/link-in')).isSymbolicLink()).toBe(true);
  });

  it('lists directories with symlinks shown as such, and stats what is there', async () => {
    const entries = await ws.readDir('.');
    expect(entries.map((e) => [e.name, e.type])).toEqual(
      expect.arrayContaining([
        ['src', 'directory'],
        ['link-out', 'symlink'],
        ['etc', 'symlink'],
      ]),
    );
    expect(await ws.stat('nope')).toBeUndefined();
    expect(await ws.stat('src')).toMatchObject({ type: 'directory' });
    await expect(ws.stat('link-out')).rejects.toMatchObject(refused);
  });
});

describe('NodeWorkspace with the fs tools: huge and binary files', () => {
  it('reads only the start of a huge file and says so; refuses to edit it', async () => {
    // 3 GB (text, then sparse): reading it whole would exhaust memory.
    const huge = join(root, 'huge.log');
    writeFileSync(huge, `first line\nsecond line\n${'filler line of text\n'.repeat(10_000)}`);
    truncateSync(huge, 3 * 1024 ** 3);
    const [readFile, , editFile] = createFsTools(ws, { maxFileBytes: 64 * 1024 });
    const result = (await readFile.execute({ path: 'huge.log', limit: 2 }, ctx)) as { content: string; note: string };
    expect(result.content).toBe('1\tfirst line\n2\tsecond line');
    expect(result.note).toMatch(/3221225472 bytes; only its first 65536 bytes were read/);
    await expect(editFile.execute({ path: 'huge.log', old_string: 'first', new_string: 'x' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
    rmSync(huge);
  });

  it('refuses to show or edit a binary file, and grep skips it', async () => {
    writeFileSync(join(root, 'image.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]));
    writeFileSync(join(root, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const [readFile, , editFile, , , grep] = createFsTools(ws);
    await expect(readFile.execute({ path: 'image.png' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE', message: expect.stringMatching(/binary/) });
    await expect(readFile.execute({ path: 'latin1.txt' }, ctx)).rejects.toMatchObject({ message: expect.stringMatching(/binary/) });
    await expect(editFile.execute({ path: 'image.png', old_string: 'PNG', new_string: 'x' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
    const found = (await grep.execute({ pattern: 'PNG|IHDR' }, ctx)) as { matches: unknown[]; note: string };
    expect(found.matches).toEqual([]);
    expect(found.note).toMatch(/binary file\(s\) skipped/);
  });

  it('never follows a symlink out of the root while walking (glob, grep)', async () => {
    const [, , , , glob, grep] = createFsTools(ws);
    const files = (await glob.execute({ pattern: '**/*' }, ctx)) as { matches: string[] };
    expect(files.matches.some((m) => m.includes('passwd') || m.includes('secret'))).toBe(false);
    const hits = (await grep.execute({ pattern: 'outside the root' }, ctx)) as { matches: unknown[] };
    expect(hits.matches).toEqual([]);
  });

  it('refuses a FIFO instead of hanging on it', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    const [readFile] = createFsTools(ws);
    await expect(readFile.execute({ path: 'pipe' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
    rmSync(join(root, 'pipe'));
  });

  it('refuses to write a FIFO (it would block forever) or any other non-regular file', async () => {
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [join(root, 'pipe-w')]);
    try {
      const [, writeFile, editFile] = createFsTools(ws);
      await expect(writeFile.execute({ path: 'pipe-w', content: 'x' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
      await expect(editFile.execute({ path: 'pipe-w', old_string: 'a', new_string: 'b' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
      // The provider itself refuses too, whoever calls it.
      await expect(ws.writeFile('pipe-w', 'x')).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_FILE_UNSUITABLE' });
      expect(lstatSync(join(root, 'pipe-w')).isFIFO()).toBe(true);
    } finally {
      rmSync(join(root, 'pipe-w'));
    }
  });

  it('writes atomically: a reader racing the writes sees the old content or the new, never a part', async () => {
    const a = 'a'.repeat(2 * 1024 * 1024);
    const b = 'b'.repeat(2 * 1024 * 1024);
    await ws.writeFile('race.txt', a);
    const seen = new Set<number>();
    let writing = true;
    const reader = (async () => {
      while (writing) {
        const bytes = await ws.readFile('race.txt');
        seen.add(bytes.length);
      }
    })();
    for (let i = 0; i < 30; i++) await ws.writeFile('race.txt', i % 2 ? a : b);
    writing = false;
    await reader;
    expect([...seen]).toEqual([a.length]);
    // Nothing is left behind: no temporary file next to it.
    expect(readdirSync(root).filter((name) => name.includes('race.txt'))).toEqual(['race.txt']);
    rmSync(join(root, 'race.txt'));
  });

  it("keeps a replaced file's mode", async () => {
    writeFileSync(join(root, 'run.sh'), 'echo 1\n', { mode: 0o755 });
    await ws.writeFile('run.sh', 'echo 2\n');
    expect(statSync(join(root, 'run.sh')).mode & 0o777).toBe(0o755);
    rmSync(join(root, 'run.sh'));
  });

  it('the file tools accept an absolute path inside the root, and refuse one outside', async () => {
    const [readFile, writeFile] = createFsTools(ws);
    expect(await readFile.execute({ path: join(root, 'src/app.ts') }, ctx)).toMatchObject({ path: 'src/app.ts', startLine: 1 });
    expect(await writeFile.execute({ path: join(root, 'abs.txt'), content: 'x' }, ctx)).toMatchObject({ path: 'abs.txt', created: true });
    await expect(readFile.execute({ path: join(base, 'secret.txt') }, ctx)).rejects.toMatchObject(refused);
    await expect(readFile.execute({ path: '/etc/passwd' }, ctx)).rejects.toMatchObject(refused);
    rmSync(join(root, 'abs.txt'));
  });

  it('a hard link is the one thing path checks cannot see (documented): it reads as the file it is', async () => {
    linkSync(join(base, 'secret.txt'), join(root, 'hardlink.txt'));
    expect(new TextDecoder().decode(await ws.readFile('hardlink.txt'))).toBe('outside the root');
    rmSync(join(root, 'hardlink.txt'));
  });
});

describe.skipIf(!bwrap && process.env.CI !== 'true')('NodeWorkspace commands', () => {
  it('run in the root (or a directory inside it) with a minimal environment', async () => {
    process.env.LOUSHO_TEST_SECRET = 'do-not-leak';
    try {
      const result = await ws.exec('pwd; env');
      expect(result.exitCode).toBe(0);
      const [pwd, ...env] = result.stdout.trim().split('\n');
      expect(pwd).toBe(root);
      expect(result.stdout).not.toContain('do-not-leak');
      expect(env.map((line) => line.split('=')[0]).sort()).toEqual(expect.arrayContaining(['HOME', 'PATH']));
      expect(env.some((line) => line.startsWith('LOUSHO_TEST_SECRET'))).toBe(false);
      expect((await ws.exec('pwd', { cwd: 'src' })).stdout.trim()).toBe(join(root, 'src'));
      await expect(ws.exec('pwd', { cwd: '..' })).rejects.toMatchObject(refused);
      await expect(ws.exec('pwd', { cwd: 'etc' })).rejects.toMatchObject(refused);
    } finally {
      delete process.env.LOUSHO_TEST_SECRET;
    }
  });

  it('the shell tool reports exit codes, timeouts and capped output', async () => {
    const shell = createShellTool(ws, { maxOutputBytes: 1000 });
    expect(await shell.execute({ command: 'echo out; echo err >&2; exit 3' }, ctx)).toEqual({ exitCode: 3, stdout: 'out\n', stderr: 'err\n' });
    const slow = (await shell.execute({ command: 'sleep 30', timeout_ms: 200 }, ctx)) as { timedOut: boolean; exitCode: number | null };
    expect(slow).toMatchObject({ timedOut: true, exitCode: null });
    const loud = (await shell.execute({ command: 'seq 1 100000' }, ctx)) as { stdout: string; truncated: boolean };
    expect(loud.truncated).toBe(true);
    expect(loud.stdout.length).toBeLessThan(1100);
    expect(loud.stdout.startsWith('1\n2\n')).toBe(true);
    expect(loud.stdout.trimEnd().endsWith('99999\n100000')).toBe(true);
    expect(loud.stdout).toMatch(/bytes of output omitted/);
  });

  it('are confined to the root (bubblewrap): nothing outside it is read or written', async () => {
    const result = await ws.exec(`cat ${join(base, 'secret.txt')}; echo x > ${join(base, 'escaped-by-shell.txt')}; echo made > inside.txt`);
    expect(result.stdout).not.toContain('outside the root');
    expect(existsSync(join(base, 'escaped-by-shell.txt'))).toBe(false);
    expect(readFileSync(join(root, 'inside.txt'), 'utf8')).toBe('made\n');
    rmSync(join(root, 'inside.txt'));
    // confineCommands: false is the explicit way out: the same command then reaches the file.
    const unconfined = new NodeWorkspace({ root, confineCommands: false });
    expect((await unconfined.exec(`cat ${join(base, 'secret.txt')}`)).stdout).toBe('outside the root');
  });

  it('refuses a root that is not absolute, and reports a missing one clearly', async () => {
    expect(() => new NodeWorkspace({ root: 'relative' })).toThrow(/absolute root/);
    await expect(new NodeWorkspace({ root: join(base, 'nope') }).readDir('.')).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_NOT_FOUND' });
  });
});
