import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent, defineMemory, fileMemory, inMemoryMemory, storageMemory, MemoryStorageService, type MemoryProvider } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

const run = promisify(execFile);
const folders: string[] = [];
const folder = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lousho-memory-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('defineMemory', () => {
  it('checks its fields, naming the bad one', () => {
    const provider = inMemoryMemory();
    expect(() => defineMemory({ name: 'my notes', scope: 'global', provider })).toThrow(/`name` must be 1-50 letters/);
    expect(() => defineMemory({ name: 'notes', scope: 'user' as never, provider })).toThrow(/`scope` of memory 'notes' must be 'global', 'session' or a function/);
    expect(() => defineMemory({ name: 'notes', scope: 'global', provider: {} as never })).toThrow(/must be a MemoryProvider/);
    expect(() => defineMemory({ name: 'notes', scope: 'global', provider, recall: { limit: 0 } })).toThrow(/recall\.limit must be a positive integer/);
    expect(() => defineMemory({ name: 'notes', scope: 'global', provider, recall: { max: 3 } as never })).toThrow(/unknown field `recall\.max`/);
    expect(() => defineMemory({ name: 'notes', scope: 'global', provider, ttl: 5 } as never)).toThrow(/unknown field `ttl`/);
    expect(() => createAgent({ provider: mockModel(['x']), memory: [{ name: 'x' }] as never })).toThrow(/from defineMemory\(\)/);
    const notes = defineMemory({ name: 'notes', scope: 'global', provider });
    expect(() => createAgent({ provider: mockModel(['x']), memory: [notes, notes] })).toThrow(/Two memories are named 'notes'/);
  });
});

describe('memory in an agent', () => {
  it('gives the model remember_<name> / recall_<name>, and the next run recalls the newest items into its first system prompt', async () => {
    const notes = defineMemory({ name: 'notes', scope: 'global', provider: inMemoryMemory(), description: 'Facts about the user' });
    const provider = mockModel([
      { toolCalls: [{ name: 'remember_notes', args: { text: 'Prefers tea' } }, { name: 'remember_notes', args: { text: 'Lives in Lyon' } }] },
      'Noted.',
      { toolCalls: [{ name: 'recall_notes', args: { query: 'tea drink' } }] },
      'You like tea.',
    ]);
    const agent = createAgent({ provider, instructions: 'Be brief.', memory: [notes] });
    const first = await agent.send('I like tea and live in Lyon', { sessionId: 'a' });
    expect(first.toolCalls.map((c) => c.result)).toEqual([
      { saved: true, id: expect.stringMatching(/^mem_/) },
      { saved: true, id: expect.stringMatching(/^mem_/) },
    ]);
    // Nothing was saved before the first run: no memory section.
    expect(provider.calls[0]!.system).toBe('Be brief.');
    expect(provider.calls[0]!.tools?.map((t) => t.name)).toEqual(['remember_notes', 'recall_notes']);

    const second = await agent.send('What do I drink?', { sessionId: 'b' });
    const system = provider.calls[2]!.system!;
    expect(system).toMatch(/^Be brief\.\n\n## Memory: notes\nFacts about the user\. What was saved earlier, newest first\./);
    // Newest first.
    expect(system.indexOf('Lives in Lyon')).toBeLessThan(system.indexOf('Prefers tea'));
    expect(system).toMatch(/- \[\d{4}-\d{2}-\d{2}\] Lives in Lyon/);
    // Later calls of the run send the same system prompt (recalled once, on the first call).
    expect(provider.calls[3]!.system).toBe(system);
    expect(second.toolCalls[0]!.result).toEqual({ items: [{ text: 'Prefers tea', savedAt: expect.any(String) }] });
  });

  it('keeps session memory per session and scope-function memory per key', async () => {
    const store = inMemoryMemory();
    const session = defineMemory({ name: 'session', scope: 'session', provider: store });
    const user = defineMemory({ name: 'user', scope: ({ metadata }) => `user:${String(metadata?.userId)}`, provider: store });
    const provider = mockModel(
      [
        { toolCalls: [{ name: 'remember_session', args: { text: 'S1 fact' } }, { name: 'remember_user', args: { text: 'Ann fact' } }] },
        'ok',
        'a',
        'b',
      ],
    );
    const agent = createAgent({ provider, memory: [session, user] });
    await agent.send('x', { sessionId: 's1', metadata: { userId: 'ann' } });
    await agent.send('y', { sessionId: 's1', metadata: { userId: 'bob' } });
    await agent.send('z', { sessionId: 's2', metadata: { userId: 'ann' } });
    expect(provider.calls[2]!.system).toContain('S1 fact');
    expect(provider.calls[2]!.system).not.toContain('Ann fact');
    expect(provider.calls[3]!.system).toContain('Ann fact');
    expect(provider.calls[3]!.system).not.toContain('S1 fact');
  });

  it('bounds what is recalled by the recall limit and token budget', async () => {
    const provider = inMemoryMemory();
    for (let i = 0; i < 50; i++) await provider.add('notes:global', `fact number ${i} ${'x'.repeat(200)}`);
    const model = mockModel(['ok']);
    await createAgent({ provider: model, memory: [defineMemory({ name: 'notes', scope: 'global', provider, recall: { limit: 30, maxTokens: 300 } })] }).send('x');
    const lines = model.calls[0]!.system!.split('\n').filter((line) => line.startsWith('- ['));
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(30);
    expect(lines[0]).toContain('fact number 49');
    const none = mockModel(['ok']);
    await createAgent({ provider: none, memory: [defineMemory({ name: 'notes', scope: 'global', provider, recall: false })] }).send('x');
    expect(none.calls[0]!.system).toBeUndefined();
  });

  it('a throwing scope function fails the run with LOUSHO_CONFIG_RESOLVER_FAILED naming the memory', async () => {
    const memory = defineMemory({
      name: 'user',
      scope: () => {
        throw new Error('no user');
      },
      provider: inMemoryMemory(),
    });
    await expect(createAgent({ provider: mockModel(['x']), memory: [memory] }).send('x')).rejects.toMatchObject({ code: 'LOUSHO_CONFIG_RESOLVER_FAILED', field: 'memory.user.scope' });
    const empty = defineMemory({ name: 'user', scope: () => '', provider: inMemoryMemory() });
    await expect(createAgent({ provider: mockModel(['x']), memory: [empty] }).send('x')).rejects.toThrow(/non-empty string key/);
  });

  it('recall_ without a query lists the newest; remember_ refuses empty text as an argument error', async () => {
    const notes = defineMemory({ name: 'notes', scope: 'global', provider: inMemoryMemory() });
    const provider = mockModel([
      { toolCalls: [{ name: 'remember_notes', args: { text: 'one' } }, { name: 'remember_notes', args: { text: 'two' } }, { name: 'remember_notes', args: { text: '  ' } }] },
      { toolCalls: [{ name: 'recall_notes', args: { limit: 1 } }] },
      'ok',
    ]);
    const result = await createAgent({ provider, memory: [notes] }).send('x');
    // Records come in completion order: find the calls by id.
    expect(result.toolCalls.find((c) => c.toolCallId === 'call_3')).toMatchObject({ isError: true, error: { kind: 'validation' } });
    expect(result.toolCalls.find((c) => c.toolName === 'recall_notes')!.result).toEqual({ items: [{ text: 'two', savedAt: expect.any(String) }] });
  });
});

describe('memory providers', () => {
  const contract = (name: string, make: () => MemoryProvider) => {
    it(`${name}: add, recent (newest first), search (best match first, then newest)`, async () => {
      const memory = make();
      await memory.add('s', 'The user likes green tea');
      await memory.add('s', 'The user lives in Lyon');
      await memory.add('s', 'Tea should be served hot');
      await memory.add('other', 'unrelated');
      expect((await memory.recent('s', 2)).map((i) => i.text)).toEqual(['Tea should be served hot', 'The user lives in Lyon']);
      expect((await memory.search('s', 'green TEA', 5)).map((i) => i.text)).toEqual(['The user likes green tea', 'Tea should be served hot']);
      expect(await memory.search('s', 'nothing matches', 5)).toEqual([]);
      expect(await memory.recent('empty', 5)).toEqual([]);
    });
  };
  contract('inMemoryMemory', () => inMemoryMemory());
  contract('fileMemory', () => fileMemory({ dir: folder() }));
  contract('storageMemory', () => storageMemory(new MemoryStorageService()));

  it('keeps at most maxItems per slot, dropping the oldest', async () => {
    const memory = inMemoryMemory({ maxItems: 3 });
    for (const text of ['a', 'b', 'c', 'd']) await memory.add('s', text);
    expect((await memory.recent('s', 10)).map((i) => i.text)).toEqual(['d', 'c', 'b']);
    expect(() => inMemoryMemory({ maxItems: 0 })).toThrow(/maxItems must be a positive integer/);
  });

  it('fileMemory: slot names of any characters become safe file names that stay inside dir', async () => {
    const dir = folder();
    const memory = fileMemory({ dir });
    await memory.add('notes:scope:../../etc/passwd', 'x');
    await memory.add('notes:session:ü/\\:*?', 'y');
    const files = (readdirSync(dir, { recursive: true }) as string[]).sort();
    // One file per slot, right under memory/: no segment of a slot name became a path segment.
    expect(files).toHaveLength(3);
    expect(files[0]).toBe('memory');
    expect(files.slice(1).every((f) => f.startsWith(`memory${sep}`) && f.split(sep).length === 2 && f.endsWith('.v'))).toBe(true);
    expect((await fileMemory({ dir }).recent('notes:scope:../../etc/passwd', 1))[0]!.text).toBe('x');
    expect(() => fileMemory({} as never)).toThrow(/needs \{ dir \}/);
  });

  it('fileMemory: two processes adding to the same slot lose nothing', async () => {
    const dir = folder();
    const script = join(folder(), 'add.mts');
    const source = fileURLToPath(new URL('../../src/memory/file-memory.ts', import.meta.url));
    const { writeFileSync } = await import('node:fs');
    writeFileSync(
      script,
      `import { fileMemory } from ${JSON.stringify(source)};
      const memory = fileMemory({ dir: process.argv[2] });
      for (let i = 0; i < 25; i++) await memory.add('shared', process.argv[3] + ':' + i);`,
    );
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    // From source, as the tests run: the package's own imports resolve with the @lousho/source condition.
    await Promise.all(['a', 'b'].map((who) => run(tsx, ['--conditions=@lousho/source', script, dir, who], { timeout: 60_000 })));
    const items = await fileMemory({ dir }).recent('shared', 100);
    expect(items).toHaveLength(50);
    expect(new Set(items.map((i) => i.text)).size).toBe(50);
  }, 90_000);

  it('reports a slot holding something that is not a list, without losing it', async () => {
    const storage = new MemoryStorageService();
    storage.set('memory/s', '{"not":"a list"}');
    const memory = storageMemory(storage);
    await expect(memory.add('s', 'x')).rejects.toMatchObject({ code: 'LOUSHO_STORAGE_ERROR' });
    expect(storage.get('memory/s')).toBe('{"not":"a list"}');
  });
});
