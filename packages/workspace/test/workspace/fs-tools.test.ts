import { describe, expect, it } from 'vitest';
import { createAgent, type ToolExecutionContext } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { createFsTools, createShellTool, MemoryWorkspace } from '../../src/index.js';

const ctx: ToolExecutionContext = { toolCallId: 'call_1', messages: [] };

function project() {
  return new MemoryWorkspace({
    files: {
      'package.json': '{ "name": "demo" }\n',
      'src/math.ts': 'export function add(a: number, b: number) {\n  return a + b;\n}\n\nexport function sub(a: number, b: number) {\n  return a - b;\n}\n',
      'src/index.ts': "import { add } from './math';\nconsole.log(add(1, 2));\n",
      'node_modules/dep/index.js': 'module.exports = 1; // add\n',
      'assets/logo.bin': new Uint8Array([0, 1, 2, 3, 0, 255]),
    },
    exec: {
      'npm test': { stdout: '2 passed\n', exitCode: 0 },
      'npm run lint': (c) => ({ stdout: `linted ${Object.keys(c.workspace.snapshot()).length} files\n` }),
    },
  });
}

function tools(ws = project(), options = {}) {
  const [readFile, writeFile, editFile, listDir, glob, grep] = createFsTools(ws, options);
  return { ws, readFile: readFile!, writeFile: writeFile!, editFile: editFile!, listDir: listDir!, glob: glob!, grep: grep! };
}

describe('read_file', () => {
  it('returns numbered lines, ranges, and says how to read on', async () => {
    const { readFile } = tools();
    expect(await readFile.execute({ path: 'src/math.ts', offset: 2, limit: 2 }, ctx)).toEqual({
      path: 'src/math.ts',
      content: '2\t  return a + b;\n3\t}',
      startLine: 2,
      endLine: 3,
      totalLines: 7,
      note: 'Lines 2-3 of 7; read on with offset 4.',
    });
    await expect(readFile.execute({ path: 'src/math.ts', offset: 50 }, ctx)).rejects.toThrow(/has 7 lines; offset 50 is past its end/);
    await expect(readFile.execute({ path: 'src/nope.ts' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_NOT_FOUND' });
    await expect(readFile.execute({ path: 'src' }, ctx)).rejects.toThrow(/is a directory/);
    await expect(readFile.execute({ path: '../etc/passwd' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_PATH_OUTSIDE' });
  });

  it('bounds huge files and very long lines', async () => {
    const ws = new MemoryWorkspace({ files: { 'big.txt': `${'x'.repeat(5000)}\n${'line\n'.repeat(5000)}` } });
    const { readFile } = tools(ws, { maxFileBytes: 4096, maxLineLength: 100, defaultReadLines: 10 });
    const result = (await readFile.execute({ path: 'big.txt' }, ctx)) as { content: string; note: string };
    expect(result.content.split('\n')[0]).toBe(`1\t${'x'.repeat(100)}… [line cut at 100 characters]`);
    expect(result.note).toMatch(/only its first 4096 bytes were read/);
    await expect(readFile.execute({ path: 'big.txt', offset: 4000 }, ctx)).rejects.toThrow(/Use grep, or the shell tool/);
  });

  it('refuses binary files', async () => {
    const { readFile } = tools();
    await expect(readFile.execute({ path: 'assets/logo.bin' }, ctx)).rejects.toThrow(/binary file \(6 bytes\)/);
  });
});

describe('edit_file', () => {
  it('replaces one exact match', async () => {
    const { editFile, ws } = tools();
    expect(await editFile.execute({ path: 'src/math.ts', old_string: 'return a - b;', new_string: 'return a - b - 0;' }, ctx)).toEqual({ path: 'src/math.ts', replacements: 1, line: 6 });
    expect(await ws.readText('src/math.ts')).toContain('return a - b - 0;');
  });

  it('fails clearly on zero matches, pointing at text that differs only in whitespace', async () => {
    const { editFile, ws } = tools();
    const before = ws.snapshot();
    await expect(editFile.execute({ path: 'src/math.ts', old_string: 'return a*b;', new_string: 'x' }, ctx)).rejects.toMatchObject({
      code: 'LOUSHO_EDIT_NO_UNIQUE_MATCH',
      message: "old_string was not found in 'src/math.ts'. Read the file again (read_file) and copy the text exactly, with its indentation.",
    });
    await expect(editFile.execute({ path: 'src/math.ts', old_string: 'return  a + b;', new_string: 'x' }, ctx)).rejects.toThrow(/differs only in whitespace starts at line 2/);
    expect(ws.snapshot()).toEqual(before);
  });

  it('fails clearly on several matches, naming the lines, unless replace_all', async () => {
    const { editFile, ws } = tools();
    await expect(editFile.execute({ path: 'src/math.ts', old_string: 'a: number, b: number', new_string: 'x: number' }, ctx)).rejects.toThrow(
      /old_string occurs 2 times in 'src\/math.ts' \(lines 1, 5\)\. Include more surrounding text/,
    );
    expect(await editFile.execute({ path: 'src/math.ts', old_string: 'a: number, b: number', new_string: 'x: number', replace_all: true }, ctx)).toMatchObject({ replacements: 2 });
    expect((await ws.readText('src/math.ts')).match(/x: number/g)).toHaveLength(2);
    await expect(editFile.execute({ path: 'src/math.ts', old_string: 'same', new_string: 'same' }, ctx)).rejects.toThrow(/nothing would change/);
  });
});

describe('write_file, list_dir, glob, grep', () => {
  it('writes files and lists directories', async () => {
    const { writeFile, listDir, ws } = tools();
    expect(await writeFile.execute({ path: 'docs/a.md', content: '# A\ntext\n' }, ctx)).toEqual({ path: 'docs/a.md', created: true, bytes: 9, lines: 2 });
    expect(await ws.readText('docs/a.md')).toBe('# A\ntext\n');
    expect(await listDir.execute({}, ctx)).toEqual({
      path: '.',
      entries: [
        { name: 'assets', type: 'directory' },
        { name: 'docs', type: 'directory' },
        { name: 'node_modules', type: 'directory' },
        { name: 'package.json', type: 'file', size: 19 },
        { name: 'src', type: 'directory' },
      ],
    });
    await expect(writeFile.execute({ path: 'src', content: 'x' }, ctx)).rejects.toThrow(/is a directory/);
    await expect(writeFile.execute({ path: '/etc/cron.d/x', content: 'x' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_PATH_OUTSIDE' });
  });

  it('glob matches by pattern and skips node_modules', async () => {
    const { glob } = tools();
    expect(await glob.execute({ pattern: '**/*.{ts,js}' }, ctx)).toEqual({ pattern: '**/*.{ts,js}', matches: ['src/index.ts', 'src/math.ts'] });
    expect(await glob.execute({ pattern: '*.ts', path: 'src' }, ctx)).toMatchObject({ matches: ['src/index.ts', 'src/math.ts'] });
  });

  it('grep finds lines with caps on matches and output, and rejects bad patterns clearly', async () => {
    const { grep } = tools();
    expect(await grep.execute({ pattern: 'add\\(', glob: '**/*.ts' }, ctx)).toEqual({
      pattern: 'add\\(',
      matches: [
        { path: 'src/index.ts', line: 2, text: 'console.log(add(1, 2));' },
        { path: 'src/math.ts', line: 1, text: 'export function add(a: number, b: number) {' },
      ],
      note: undefined,
    } as never);
    const capped = (await grep.execute({ pattern: 'a', max_matches: 2 }, ctx)) as { matches: unknown[]; note: string };
    expect(capped.matches).toHaveLength(2);
    expect(capped.note).toMatch(/first 2 matches/);
    await expect(grep.execute({ pattern: '(' }, ctx)).rejects.toThrow(/not a valid regular expression/);
    const many = new MemoryWorkspace({ files: { 'a.txt': `${'match this line please\n'.repeat(1000)}` } });
    const out = (await tools(many, { maxGrepOutputChars: 200 }).grep.execute({ pattern: 'match' }, ctx)) as { matches: unknown[]; note: string };
    expect(out.matches.length).toBeLessThan(10);
    expect(out.note).toMatch(/output limit of 200 characters/);
  });

  it('grep runs a catastrophic pattern on long lines in linear time, and refuses backtracking features with a code', async () => {
    // `^(a+)+$` against 40 a's and a '!' backtracks for hours on JavaScript's engine.
    const hostile = new MemoryWorkspace({ files: { 'a.txt': `${'a'.repeat(40)}!\n${'a'.repeat(40)}\n${'a'.repeat(20_000)}!\n` } });
    const { grep } = tools(hostile);
    expect(await grep.execute({ pattern: '^(a+)+$' }, ctx)).toMatchObject({ matches: [{ path: 'a.txt', line: 2 }] });
    expect(await grep.execute({ pattern: '^(A|a)+$', ignore_case: true }, ctx)).toMatchObject({ matches: [{ line: 2 }] });
    await expect(grep.execute({ pattern: '(a)\\1' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_REGEX_UNSUPPORTED', message: expect.stringMatching(/The grep pattern "\(a\)\\\\1" needs a feature the linear-time engine/) });
    await expect(grep.execute({ pattern: 'a(?=b)' }, ctx)).rejects.toMatchObject({ code: 'LOUSHO_REGEX_UNSUPPORTED' });
  });

  it('readOnly leaves out the tools that write; approveWrites makes them ask', async () => {
    expect(createFsTools(project(), { readOnly: true }).map((t) => t.name)).toEqual(['read_file', 'list_dir', 'glob', 'grep']);
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }] }]), tools: createFsTools(project(), { approveWrites: true }) });
    expect((await agent.send('write')).finishReason).toBe('awaiting-approval');
  });
});

describe('MemoryWorkspace exec and the shell tool', () => {
  it('answers scripted commands, records them, and exits 127 for others', async () => {
    const ws = project();
    const shell = createShellTool(ws);
    expect(await shell.execute({ command: 'npm test' }, ctx)).toEqual({ exitCode: 0, stdout: '2 passed\n', stderr: '' });
    expect(await shell.execute({ command: 'npm run lint' }, ctx)).toMatchObject({ stdout: 'linted 5 files\n' });
    expect(await shell.execute({ command: 'rm -rf /' }, ctx)).toMatchObject({ exitCode: 127, stderr: expect.stringContaining('not scripted') });
    expect(ws.commands.map((c) => c.command)).toEqual(['npm test', 'npm run lint', 'rm -rf /']);
  });

  it('honours timeouts and aborts for slow scripts', async () => {
    const ws = new MemoryWorkspace({ exec: () => new Promise(() => {}) });
    expect(await ws.exec('hang', { timeoutMs: 20 })).toMatchObject({ timedOut: true, exitCode: null });
    const controller = new AbortController();
    const pending = ws.exec('hang', { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(pending).rejects.toThrow('stop');
  });

  it('refuses what is not a provider', () => {
    expect(() => createFsTools({} as never)).toThrow(/stat, readFile, writeFile, readDir/);
    expect(() => createShellTool({} as never)).toThrow(/ShellProvider/);
    expect(() => createFsTools(project(), { maxFileBytes: -1 })).toThrow(/positive integer/);
  });
});
