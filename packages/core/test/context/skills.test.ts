import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentExecutor, createAgent, defineSkill, loadSkills, type Skill } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lousho-skills-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(path: string, text: string): Promise<void> {
  await mkdir(join(dir, path, '..'), { recursive: true });
  await writeFile(join(dir, path), text);
}

const refunds = defineSkill({ name: 'refunds', description: 'How to handle a refund request', content: 'Step 1: look up the order. Step 2: refund it.' });

describe('defineSkill', () => {
  it('checks name, description and content, naming the field', () => {
    expect(() => defineSkill({ name: 'bad name', description: 'x', content: 'y' })).toThrow(/`name` must be/);
    expect(() => defineSkill({ name: 'ok', description: ' ', content: 'y' })).toThrow(/`description` must be a non-empty string/);
    expect(() => defineSkill({ name: 'ok', description: 'x'.repeat(1025), content: 'y' })).toThrow(/at most 1024 characters, got 1025/);
    expect(() => defineSkill({ name: 'ok', description: 'd', content: 5 as never })).toThrow(/`content` must be a string/);
    expect(() => defineSkill({ name: 'ok', description: 'd', content: '', body: 'x' } as never)).toThrow(/unknown field `body`/);
    try {
      defineSkill({ name: '', description: 'd', content: '' });
    } catch (error) {
      expect(error).toMatchObject({ code: 'LOUSHO_INVALID_SKILL' });
    }
  });
});

describe('skills in an agent', () => {
  it('puts only names and descriptions in the system prompt; load_skill returns the body', async () => {
    const provider = mockModel([{ toolCalls: [{ name: 'load_skill', args: { name: 'refunds' } }] }, 'Done.']);
    const agent = createAgent({ provider, instructions: 'You are support.', skills: [refunds, defineSkill({ name: 'tone', description: 'Write\n  politely', content: 'Be kind.' })] });
    const result = await agent.send('Refund order 7');
    const system = provider.calls[0]!.system!;
    expect(system.startsWith('You are support.\n\n## Skills\n')).toBe(true);
    expect(system).toContain('- refunds: How to handle a refund request');
    expect(system).toContain('- tone: Write politely');
    expect(system).not.toContain('Step 1');
    expect(provider.calls[0]!.tools?.map((t) => t.name)).toEqual(['load_skill']);
    expect(result.toolCalls[0]).toMatchObject({ toolName: 'load_skill', isError: false, result: { skill: 'refunds', content: 'Step 1: look up the order. Step 2: refund it.', files: [] } });
    // The same system prompt on every call of the run.
    expect(provider.calls[1]!.system).toBe(system);
  });

  it('has no load_skill tool without skills, and a wrong skill name is an argument error the model sees', async () => {
    const plain = mockModel(['hi']);
    await createAgent({ provider: plain }).send('x');
    expect(plain.calls[0]!.tools).toBeUndefined();
    const provider = mockModel([{ toolCalls: [{ name: 'load_skill', args: { name: 'nope' } }] }, 'ok']);
    const result = await createAgent({ provider, skills: [refunds] }).send('x');
    expect(result.toolCalls[0]).toMatchObject({ isError: true, error: { kind: 'validation' } });
  });

  it('refuses two skills with one name, a skill not made by defineSkill, and a tool named load_skill next to skills', async () => {
    await expect(createAgent({ provider: mockModel(['x']), skills: [refunds, refunds] }).send('x')).rejects.toThrow(/Two skills are named 'refunds'/);
    await expect(createAgent({ provider: mockModel(['x']), skills: [{ name: 'x' } as unknown as Skill] }).send('x')).rejects.toThrow(/defineSkill\(\) or loadSkills\(\)/);
    const own = { name: 'load_skill', description: 'mine', parameters: { type: 'object' }, execute: () => 'x' };
    await expect(createAgent({ provider: mockModel(['x']), tools: { load_skill: own }, skills: [refunds] }).send('x')).rejects.toMatchObject({ code: 'LOUSHO_DUPLICATE_TOOL' });
  });

  it('takes skills per run, and in AgentExecutor.execute()', async () => {
    const provider = mockModel(['a', 'b']);
    const agent = createAgent({ provider, skills: ({ metadata }) => (metadata?.pro ? [refunds] : []) });
    await agent.send('x', { metadata: { pro: true } });
    await agent.send('y');
    expect(provider.calls[0]!.system).toContain('refunds');
    expect(provider.calls[1]!.system).toBeUndefined();
    const exec = mockModel([{ toolCalls: [{ name: 'load_skill', args: { name: 'refunds' } }] }, 'ok']);
    const result = await AgentExecutor.execute({ agent: { name: 'a', instructions: 'Hi.' }, input: 'x', provider: exec, skills: [refunds] });
    expect(exec.calls[0]!.system).toContain('## Skills\n');
    expect(result.toolCalls[0]!.result).toMatchObject({ skill: 'refunds' });
  });

  it('reads an inline file of a skill, and refuses a file it does not list', async () => {
    const skill = defineSkill({ name: 'style', description: 'House style', content: 'See examples/a.md', files: { 'examples/a.md': 'Example A' } });
    const provider = mockModel([
      { toolCalls: [{ name: 'load_skill', args: { name: 'style' } }, { name: 'load_skill', args: { name: 'style', file: 'examples/a.md' } }, { name: 'load_skill', args: { name: 'style', file: '../secret' } }] },
      'ok',
    ]);
    const result = await createAgent({ provider, skills: [skill] }).send('x');
    expect(result.toolCalls[0]!.result).toMatchObject({ files: ['examples/a.md'] });
    expect(result.toolCalls[1]!.result).toEqual({ skill: 'style', file: 'examples/a.md', content: 'Example A' });
    expect(result.toolCalls[2]).toMatchObject({ isError: true, error: { kind: 'execution', message: expect.stringContaining("has no file '../secret'") } });
  });
});

describe('loadSkills(dir)', () => {
  it('reads one skill per folder: front matter name/description, body as content, other files listed', async () => {
    await write('pdf/SKILL.md', '---\nname: pdf\ndescription: "Fill in PDF forms"\nlicense: MIT\n---\n\n# PDF\nUse forms.md.\n');
    await write('pdf/forms.md', 'How to fill forms');
    await write('pdf/scripts/fill.py', 'print(1)');
    await write('pdf/.hidden', 'x');
    await write('notes/README.txt', 'a folder without a skill is skipped');
    await write('csv/SKILL.md', '---\r\nname: csv\r\ndescription: >\r\n  Work with CSV\r\n  files\r\n---\r\nBody');
    const skills = await loadSkills(dir);
    expect(skills.map((s) => s.name)).toEqual(['csv', 'pdf']);
    const [csv, pdf] = skills as [Skill, Skill];
    expect(csv.description).toBe('Work with CSV files\n');
    expect(csv.content).toBe('Body');
    expect(pdf.content).toBe('# PDF\nUse forms.md.\n');
    expect(pdf.files).toEqual(['forms.md', 'scripts/fill.py']);
    expect(await pdf.readFile('scripts/fill.py')).toBe('print(1)');
    await expect(pdf.readFile('SKILL.md')).rejects.toThrow(/has no file/);
  });

  it('gives the model the files of a loaded skill through load_skill', async () => {
    await write('pdf/SKILL.md', '---\nname: pdf\ndescription: PDFs\n---\nRead forms.md');
    await write('pdf/forms.md', 'Form help');
    const provider = mockModel([{ toolCalls: [{ name: 'load_skill', args: { name: 'pdf', file: 'forms.md' } }] }, 'ok']);
    const result = await createAgent({ provider, skills: await loadSkills(dir) }).send('x');
    expect(result.toolCalls[0]!.result).toEqual({ skill: 'pdf', file: 'forms.md', content: 'Form help' });
  });

  it('fails naming the file, the line and the field', async () => {
    await write('a/SKILL.md', '---\nname: a\n---\nbody');
    await expect(loadSkills(dir)).rejects.toMatchObject({ code: 'LOUSHO_INVALID_SKILL', message: `${join(dir, 'a', 'SKILL.md')}:2: field \`description\` must be a non-empty string, got nothing.` });
    await write('a/SKILL.md', '---\nname: a\ndescription: ok\nname: b\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:4: invalid YAML/);
    await write('a/SKILL.md', '---\nname: Bad Name!\ndescription: ok\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:2: field `name` must be 1-64 letters/);
    await write('a/SKILL.md', '---\nname: a\ndescription: ok\nallowed-tools: [bash]\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:4: field `allowed-tools` is not supported/);
    await write('a/SKILL.md', '# no front matter');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:1: no YAML front matter/);
    await write('a/SKILL.md', '---\nname: a\ndescription: ok\n');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:1: the YAML front matter is not closed/);
    await write('a/SKILL.md', '---\n- a\n- b\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/SKILL\.md:2: the front matter must be a mapping/);
  });

  it('refuses a lookalike skill file, two skills with one name, and a missing folder', async () => {
    await write('a/skill.md', '---\nname: a\ndescription: x\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/skill\.md: the skill file must be named SKILL\.md/);
    await rm(join(dir, 'a'), { recursive: true });
    await write('a/SKILL.md', '---\nname: same\ndescription: x\n---\n');
    await write('b/SKILL.md', '---\nname: same\ndescription: y\n---\n');
    await expect(loadSkills(dir)).rejects.toThrow(/the skill name 'same' is also used by/);
    await expect(loadSkills(join(dir, 'missing'))).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining('ENOENT') });
  });

  it('never lists or reads through a symlink, and refuses binary files', async () => {
    await write('a/SKILL.md', '---\nname: a\ndescription: x\n---\n');
    await write('outside.txt', 'secret');
    await symlink(join(dir, 'outside.txt'), join(dir, 'a', 'link.txt'));
    await write('a/image.bin', 'PNG\u0000data');
    const [skill] = await loadSkills(dir);
    expect(skill!.files).toEqual(['image.bin']);
    await expect(skill!.readFile('link.txt')).rejects.toThrow(/has no file/);
    await expect(skill!.readFile('image.bin')).rejects.toThrow(/not a text file/);
  });
});
