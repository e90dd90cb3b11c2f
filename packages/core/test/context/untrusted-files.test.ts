import { mkdtemp, mkdir, open, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadSkills, loadSpec, parseAgentSpec, type LoadSkillResult } from '../../src/index.js';
import { loadSkillTool } from '../../src/skills/skill-tool.js';

/*
 * Skill folders and spec files come from repositories: they are read with a size cap (never whole
 * to be refused after), their YAML aliases resolve within bounds or are refused with a clear code,
 * and no key is dropped silently.
 */
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lousho-untrusted-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(path: string, text: string): Promise<string> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
  return join(dir, path);
}

/** A sparse file of `size` bytes: as large as it says, without taking the disk. */
async function sparse(path: string, size: number, start = 'x'): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  const handle = await open(join(dir, path), 'w');
  await handle.write(start, 0);
  await handle.truncate(size);
  await handle.close();
}

const ctx = { toolCallId: 'c', messages: [] };

describe('skill folders', () => {
  it('a 20 MB SKILL.md is refused when loaded (LOUSHO_INVALID_SKILL), read only up to its cap', async () => {
    await write('big/SKILL.md', `---\nname: big\ndescription: d\n---\n${'body '.repeat(4_000_000)}`);
    await expect(loadSkills(dir)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SKILL', message: expect.stringMatching(/SKILL\.md: the file is 20000\d+ bytes; a SKILL\.md may have at most 262144 \(256 KiB\)/) });
  });

  it('a 300 MB skill file is read up to 256 KiB, and the model gets 100,000 characters and a note', async () => {
    await write('docs/SKILL.md', '---\nname: docs\ndescription: d\n---\nRead manual.txt.');
    // 300,000 characters of text, then zero bytes up to 300 MB: read whole, it would be refused as
    // binary; read up to the cap, it is text.
    await sparse('docs/manual.txt', 300 * 1024 * 1024, 'm'.repeat(300_000));
    const [skill] = await loadSkills(dir);
    const text = await skill!.readFile('manual.txt');
    expect(text).toMatch(/^m{262144}\n\[truncated: the file has 314572800 bytes; its first 262144 were read\]$/);
    const answer = (await loadSkillTool([skill!]).execute!({ name: 'docs', file: 'manual.txt' }, ctx)) as LoadSkillResult & { truncated?: true };
    expect(answer).toMatchObject({ truncated: true, content: expect.stringMatching(/^m{100000}\n\[truncated/) });
  });

  it('load_skill cuts a long body or file at 100,000 characters and says so', async () => {
    await write('long/SKILL.md', `---\nname: long\ndescription: d\n---\n${'a'.repeat(150_000)}`);
    await write('long/notes.md', 'b'.repeat(120_000));
    const tool = loadSkillTool(await loadSkills(dir));
    const body = (await tool.execute!({ name: 'long' }, ctx)) as LoadSkillResult & { truncated?: true };
    expect(body.truncated).toBe(true);
    expect(body.content).toMatch(/^a{100000}\n\[truncated: the text has 150000 characters; the first 100000 are shown\]$/);
    const file = (await tool.execute!({ name: 'long', file: 'notes.md' }, ctx)) as LoadSkillResult & { truncated?: true };
    expect(file).toMatchObject({ truncated: true, content: expect.stringContaining('the text has 120000 characters') });
  });

  it('YAML aliases in the front matter resolve within bounds; a billion laughs is refused with the line and a code', async () => {
    await write('alias/SKILL.md', '---\nname: alias\ndescription: &d Handles refunds\nmetadata:\n  summary: *d\n---\nBody');
    const [skill] = await loadSkills(dir);
    expect(skill).toMatchObject({ name: 'alias', description: 'Handles refunds' });
    await rm(join(dir, 'alias'), { recursive: true });
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghi'.split('').map((k, i) => `  ${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)];
    await write('laughs/SKILL.md', `---\nname: laughs\ndescription: d\nmetadata:\n  ${laughs.join('\n')}\n---\nBody`);
    await expect(loadSkills(dir)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SKILL', message: expect.stringMatching(/SKILL\.md:4: the YAML aliases of `metadata` expand too far/) });
  });

  it('a `__proto__:` field is not dropped silently: it is refused as an unknown field, with its line', async () => {
    await write('proto/SKILL.md', '---\nname: proto\ndescription: d\n__proto__:\n  polluted: true\n---\nBody');
    await expect(loadSkills(dir)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SKILL', message: expect.stringContaining('SKILL.md:4: field `__proto__` is not a skill field') });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Inside metadata it is kept as a key.
    await rm(join(dir, 'proto'), { recursive: true });
    await write('meta/SKILL.md', '---\nname: meta\ndescription: d\nmetadata:\n  __proto__: kept\n---\nBody');
    expect((await loadSkills(dir))[0]!.name).toBe('meta');
  });
});

describe('spec files', () => {
  it('a billion-laughs spec is a clear LOUSHO_INVALID_SPEC naming the file, not a raw ReferenceError', async () => {
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)];
    const file = await write('laughs.yaml', `name: laughs\ninstructions: hi\nx:\n${laughs.map((line) => `  ${line}`).join('\n')}\n`);
    const error = await loadSpec(file).then(
      () => undefined,
      (caught: unknown) => caught as Error & { code?: string },
    );
    expect(error).toBeDefined();
    expect(error!.name).toBe('SpecError');
    expect(error).toMatchObject({ code: 'LOUSHO_INVALID_SPEC', message: expect.stringContaining('uses YAML aliases (*name) that expand too far') });
    expect(error!.message).toContain(file);
    expect(() => parseAgentSpec(`name: x\ninstructions: y\nx:\n${laughs.map((line) => `  ${line}`).join('\n')}`)).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_SPEC' }));
  });

  it('sub-agent files that fan out (each naming the next ten times) stop at 100 specs with LOUSHO_LIMIT_EXCEEDED', async () => {
    for (let level = 0; level < 6; level++) {
      const subagents = level === 5 ? '' : `subagents: [${Array(10).fill(`./level${level + 1}.yaml`).join(', ')}]\n`;
      await write(`level${level}.yaml`, `name: level${level}\ndescription: level ${level}\ninstructions: hi\n${subagents}`);
    }
    await expect(loadSpec(join(dir, 'level0.yaml'))).rejects.toMatchObject({ code: 'LOUSHO_LIMIT_EXCEEDED', message: expect.stringContaining('more than 100 in all') });
  });

  it('a chain of sub-agent files deeper than 8 is refused; a spec file over 1 MiB is refused after reading 1 MiB', async () => {
    for (let level = 0; level < 10; level++) await write(`chain${level}.yaml`, `name: chain${level}\ndescription: c\ninstructions: hi\n${level < 9 ? `subagents: [./chain${level + 1}.yaml]\n` : ''}`);
    await expect(loadSpec(join(dir, 'chain0.yaml'))).rejects.toMatchObject({ code: 'LOUSHO_LIMIT_EXCEEDED', message: expect.stringContaining('more than 8 sub-agents deep') });
    await sparse('huge.yaml', 200 * 1024 * 1024, 'name: huge\n#');
    await expect(loadSpec(join(dir, 'huge.yaml'))).rejects.toMatchObject({ code: 'LOUSHO_LIMIT_EXCEEDED', message: expect.stringContaining('is 209715200 bytes; a spec file may have at most 1048576') });
  });
});
