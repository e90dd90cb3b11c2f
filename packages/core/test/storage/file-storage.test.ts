import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { FileStorageService } from '../../src/node/io.js';
import { checkStorageKey, LocalStorageCheckpointStore, StorageServiceApprovalStore, storageKeySegment } from '../../src/storage/index.js';
import { mockModel } from '@lousho/testing';

const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lousho-files-'));
  dirs.push(dir);
  return dir;
}

/** The segment for an id, or undefined when the id is refused as too long (with the stable code). */
function segmentOrTooLong(id: string): string | undefined {
  try {
    return storageKeySegment(id);
  } catch (error) {
    expect(error).toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    expect(new TextEncoder().encode(id).length).toBeGreaterThan(16);
    return undefined;
  }
}

describe('storage keys', () => {
  it('refuses keys that could leave the folder or are not plain segments', () => {
    for (const bad of ['', '..', 'a/../b', '/abs', 'a//b', 'a/./b', 'a\\b', 'C:', 'x y', 'ü', 'a/'.repeat(17) + 'a']) {
      expect(() => checkStorageKey(bad), bad).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_INPUT' }));
    }
    expect(checkStorageKey('approvals/apr_1')).toBe('approvals/apr_1');
  });

  it('turns any id into one safe segment, and different ids into different segments', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), (a, b) => {
        const sa = segmentOrTooLong(a);
        if (sa === undefined) return;
        expect(() => checkStorageKey(sa)).not.toThrow();
        expect(sa.includes('/')).toBe(false);
        if (a !== b) expect(segmentOrTooLong(b)).not.toBe(sa);
      }),
    );
    // 200 ASCII characters fit, and 16 four-byte emoji (12 places each once encoded).
    expect(() => storageKeySegment('a'.repeat(200))).not.toThrow();
    expect(() => storageKeySegment('\u{1F600}'.repeat(16))).not.toThrow();
    for (const id of ['.', '..', '../x', '~2E']) expect(() => checkStorageKey(storageKeySegment(id))).not.toThrow();
    expect(storageKeySegment('..')).not.toBe(storageKeySegment('~2E~2E'));
  });
});

describe('FileStorageService', () => {
  it('keeps values in files inside its folder, lists them by prefix, and keeps a and a/b apart', async () => {
    const dir = folder();
    const storage = new FileStorageService({ dir });
    await storage.set('a', '1');
    await storage.set('a/b', '2');
    await storage.set('c/d/e', '3');
    expect(await storage.get('a')).toBe('1');
    expect(await storage.get('a/b')).toBe('2');
    expect((await storage.keys()).sort()).toEqual(['a', 'a/b', 'c/d/e']);
    expect((await storage.keys('c/')).sort()).toEqual(['c/d/e']);
    expect((await storage.keys('a')).sort()).toEqual(['a', 'a/b']);
    await storage.delete('a');
    await storage.delete('missing');
    expect(await storage.get('a')).toBeUndefined();
    // A new instance (another process, or after a restart) sees the same values; no temp files stay.
    expect(await new FileStorageService({ dir }).get('c/d/e')).toBe('3');
    const leftovers = (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp') || f.endsWith('.lock'));
    expect(leftovers).toEqual([]);
  });

  it('update is atomic across processes: 4 processes × 40 increments lose none', async () => {
    const dir = folder();
    const script = join(folder(), 'increment.mts');
    writeFileSync(
      script,
      `import { FileStorageService } from ${JSON.stringify(fileURLToPath(new URL('../../src/node/file-storage.ts', import.meta.url)))};
      const storage = new FileStorageService({ dir: process.argv[2], fsync: false });
      for (let i = 0; i < 40; i++) await storage.update('counter', (v) => String(Number(v ?? 0) + 1));`,
    );
    const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
    await Promise.all([0, 1, 2, 3].map(() => run(tsx, ['--conditions=@lousho/source', script, dir], { timeout: 60_000 })));
    expect(await new FileStorageService({ dir }).get('counter')).toBe('160');
  }, 90_000);

  it('takes over a lock left by a crashed process once it is stale, and fails clearly while a live one holds it', async () => {
    const dir = folder();
    const storage = new FileStorageService({ dir, staleLockMs: 5_000, lockTimeoutMs: 300 });
    await storage.set('k', 'v');
    const lock = join(dir, 'k.v.lock');
    writeFileSync(lock, '999999\n');
    await expect(storage.update('k', () => 'w')).rejects.toMatchObject({ code: 'LOUSHO_STORAGE_ERROR', message: expect.stringContaining("Could not lock 'k'") });
    const old = (Date.now() - 10_000) / 1000;
    utimesSync(lock, old, old);
    expect(await storage.update('k', (v) => `${v}w`)).toBe('vw');
    expect(existsSync(lock)).toBe(false);
  });

  it('reports I/O failures with a stable code and no stack in the message', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'file'), 'not a folder');
    const storage = new FileStorageService({ dir: join(dir, 'file') });
    await expect(storage.set('k', 'v')).rejects.toMatchObject({ code: 'LOUSHO_STORAGE_ERROR' });
    expect(() => new FileStorageService({} as never)).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});

describe('file-backed approvals and checkpoints under an agent', () => {
  it('a paused approval survives a restart and is decided by a new agent on the same folder, exactly once', async () => {
    const dir = folder();
    const ran: number[] = [];
    const pay = defineTool({ name: 'pay', description: 'Pay', input: z.object({ amount: z.number() }), needsApproval: true, execute: async ({ amount }) => (ran.push(amount), `paid ${amount}`) });
    const stores = () => {
      const storage = new FileStorageService({ dir });
      return { checkpoints: new LocalStorageCheckpointStore(storage), approvals: new StorageServiceApprovalStore(storage) };
    };
    const first = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'pay', args: { amount: 7 } }] }]), tools: [pay], store: stores() });
    const paused = await first.send('Pay 7', { sessionId: 'sess-1' });
    expect(paused.finishReason).toBe('awaiting-approval');

    // "Restart": new agents, new storage objects, same folder.
    const model = mockModel(['Paid 7.']);
    const second = createAgent({ provider: model, tools: [pay], store: stores() });
    // Either agent may win the race: both would answer the same; what matters is that one does, once.
    const third = createAgent({ provider: mockModel(['Paid 7.']), tools: [pay], store: stores() });
    expect((await second.approvals.list()).map((a) => a.approvalId)).toEqual([paused.approvalId]);
    const outcomes = await Promise.allSettled([
      second.approvals.resolve({ id: paused.approvalId!, approved: true }),
      third.approvals.resolve({ id: paused.approvalId!, approved: true }),
    ]);
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(ran).toEqual([7]);
    const done = outcomes.find((o) => o.status === 'fulfilled') as PromiseFulfilledResult<Awaited<ReturnType<typeof second.send>>>;
    expect(done.value.text).toBe('Paid 7.');
    const stored = await new LocalStorageCheckpointStore(new FileStorageService({ dir })).load('sess-1');
    expect(stored!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a checkpoint costs what changed: 200 saves leave a bounded number of files', async () => {
    const dir = folder();
    const storage = new FileStorageService({ dir, fsync: false });
    const store = new LocalStorageCheckpointStore(storage);
    await store.acquire('s', 'h');
    const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, estimated: false, byModel: {} } as never;
    for (let i = 0; i < 200; i++) {
      await store.save('s', {
        holder: 'h',
        messages: { keep: i, append: [{ role: 'user', content: `m${i}` }] },
        run: {
          ...(i === 0 ? { start: { runId: 'r', model: 'm', configContext: { input: '' }, runStart: 0 } } : {}),
          progress: { state: 'running', steps: i, usage },
          stepUsage: { keep: i, append: [{ step: i } as never] },
          toolCalls: { keep: 0, append: [] },
        },
      });
    }
    const loaded = await store.load('s');
    expect(loaded!.messages.map((m) => m.content)).toEqual(Array.from({ length: 200 }, (_, i) => `m${i}`));
    expect(loaded!.run!.stepUsage).toHaveLength(200);
    expect((await storage.keys()).length).toBeLessThanOrEqual(2 * 33 + 1);
    await store.delete('s');
    expect(await storage.keys()).toEqual([]);
  }, 60_000); // 200 locked file writes: slow on a busy disk, never a timing check

  it('a fenced writer cannot overwrite what the new lease holder wrote', async () => {
    const storage = new FileStorageService({ dir: folder(), fsync: false });
    const store = new LocalStorageCheckpointStore(storage);
    const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0, modelCalls: 0, estimated: false, byModel: {} } as never;
    const save = (holder: string, keep: number, content: string, start = false) =>
      store.save('s', {
        holder,
        messages: { keep, append: [{ role: 'user', content }] },
        run: { ...(start ? { start: { runId: 'r', model: 'm', configContext: { input: '' }, runStart: 0 } } : {}), progress: { state: 'running', steps: 0, usage }, stepUsage: { keep: 0, append: [] }, toolCalls: { keep: 0, append: [] } },
      });
    await store.acquire('s', 'old');
    await save('old', 0, 'a', true);
    await store.acquire('s', 'new', { force: true });
    await save('new', 1, 'from new');
    await expect(save('old', 1, 'from old')).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
    expect((await store.load('s'))!.messages.map((m) => m.content)).toEqual(['a', 'from new']);
  });
});
