import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '@lousho/core';
import { IndexedDbStore, SCHEMA_VERSION, type LockManagerLike } from '../src/index.js';
import { mockModel } from '@lousho/core/testing';
import { storeContract } from '@lousho/core/testing/stores';
import { MARKER, writeAndReadBack } from '@lousho/core/testing/stores';
import { EncryptionUtils } from '@lousho/core';

let n = 0;
/** A database of its own per test (fake-indexeddb keeps them in this process's memory). */
const freshName = (): string => `lousho-test-${process.pid}-${++n}`;

storeContract('IndexedDbStore', () => new IndexedDbStore(freshName(), { locks: null }));
const key = EncryptionUtils.generateKey();
storeContract('IndexedDbStore (encrypted)', () => new IndexedDbStore(freshName(), { locks: null, encryption: { key } }));

/** Every row of every object store of database `name`, read with the plain IndexedDB API. */
async function rawRows(name: string): Promise<Record<string, unknown[]>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const req = indexedDB.open(name);
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
  const out: Record<string, unknown[]> = {};
  for (const store of [...db.objectStoreNames]) {
    out[store] = await new Promise<unknown[]>((resolve, reject) => {
      const req = db.transaction(store).objectStore(store).getAll();
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  db.close();
  return out;
}

describe('IndexedDbStore: encryption', () => {
  it('keeps no plaintext in the database: events, transcript, run state, approvals and pending approvals are sealed', async () => {
    const name = freshName();
    const store = new IndexedDbStore(name, { locks: null, encryption: { key } });
    await writeAndReadBack(store);
    store.close();
    const rows = await rawRows(name);
    for (const table of ['sessions', 'events', 'checkpoints', 'messages', 'runItems', 'approvals']) expect(rows[table]!.length).toBeGreaterThan(0);
    expect(JSON.stringify(rows)).not.toContain(MARKER);
    // The metadata stays plain (ids, seq, statuses, times).
    expect(rows.sessions).toEqual([expect.objectContaining({ id: 'enc-1', owner: 'alice', status: 'awaiting-approval', lastSeq: 3, pendingApproval: expect.stringMatching(/^v1\./) })]);
    expect(rows.approvals).toEqual([expect.objectContaining({ approvalId: 'ap_1', sessionId: 'enc-1', status: 'resolved', body: expect.stringMatching(/^v1\./) })]);
    // Opened again with the key, all of it reads back; without it, a clear error.
    const again = new IndexedDbStore(name, { locks: null, encryption: { key } });
    expect((await again.checkpoints.load('enc-1'))?.messages[0]).toEqual({ role: 'user', content: MARKER });
    again.close();
    const keyless = new IndexedDbStore(name, { locks: null });
    await expect(keyless.sessions.eventsAfter('enc-1', 0)).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(keyless.approvals.get('ap_1')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    keyless.close();
    // A store written without a key, opened with one: refused, not trusted.
    const clear = freshName();
    const plainStore = new IndexedDbStore(clear, { locks: null });
    await writeAndReadBack(plainStore);
    plainStore.close();
    const keyed = new IndexedDbStore(clear, { locks: null, encryption: { key } });
    await expect(keyed.approvals.get('ap_1')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED', message: expect.stringContaining('stored unencrypted') });
    await expect(keyed.sessions.get('enc-1')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    await expect(keyed.checkpoints.load('enc-1')).rejects.toMatchObject({ code: 'LOUSHO_DECRYPTION_FAILED' });
    keyed.close();
  });

  it('refuses a bad key, and key rotation, when it is made', () => {
    expect(() => new IndexedDbStore(freshName(), { encryption: { key: 'nope' } })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY' }));
    expect(() => new IndexedDbStore(freshName(), { encryption: { key, previousKeys: [] } as never })).toThrow(/key rotation is not supported/);
  });
});

/**
 * The Web Locks a browser gives each page, for pages that come and go in one test: `close(page)`
 * is what the browser does when a page is reloaded or closed (its locks are released).
 */
function fakeBrowserLocks(): { locksFor(page: string): LockManagerLike; close(page: string): void } {
  const held = new Map<string, string>();
  return {
    locksFor: (page) => ({
      async request(name, callback) {
        held.set(name, page);
        return callback();
      },
      async query() {
        return { held: [...held.keys()].map((name) => ({ name })) };
      },
    }),
    close(page) {
      for (const [name, owner] of held) if (owner === page) held.delete(name);
    },
  };
}

describe('IndexedDbStore', () => {
  it('keeps sessions, the transcript and the event log across store instances on one database (a reload)', async () => {
    const name = freshName();
    const agent = createAgent({ provider: mockModel(['Hello there.', 'Still here.']), store: new IndexedDbStore(name, { locks: null }) });
    await agent.send('hi', { sessionId: 's1' });

    const reloaded = createAgent({ provider: mockModel(['Still here.']), store: new IndexedDbStore(name, { locks: null }) });
    const state = await reloaded.sessions.load('s1');
    expect(state).toMatchObject({ status: 'idle', pendingApproval: null });
    expect(state!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello there.'],
    ]);
    expect(reloaded.sessions.eventsAfter('s1', 0).at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
    const second = await reloaded.send('again?', { sessionId: 's1' });
    expect(second.messages.map((m) => m.content)).toEqual(['hi', 'Hello there.', 'again?', 'Still here.']);
  });

  it('keeps a pending approval across a reload; approving it in the new page runs the tool once', async () => {
    const name = freshName();
    const sent: string[] = [];
    const email = defineTool({
      name: 'send_email',
      description: 'Sends an email',
      input: z.object({ to: z.string() }),
      needsApproval: true,
      execute: async ({ to }) => (sent.push(to), `sent to ${to}`),
    });
    const script = () => mockModel([{ toolCalls: [{ name: 'send_email', args: { to: 'bob@example.com' } }] }, 'Done: sent.']);
    const first = createAgent({ provider: script(), tools: [email], store: new IndexedDbStore(name, { locks: null }) });
    const paused = await first.send('email bob', { sessionId: 'mail' });
    expect(paused.finishReason).toBe('awaiting-approval');

    const page2 = createAgent({ provider: mockModel(['Done: sent.']), tools: [email], store: new IndexedDbStore(name, { locks: null }) });
    const state = await page2.sessions.load('mail');
    expect(state).toMatchObject({ status: 'awaiting-approval', pendingApproval: { toolName: 'send_email', args: { to: 'bob@example.com' } } });
    const pending = await page2.approvals.list({ sessionId: 'mail' });
    expect(pending).toHaveLength(1);
    const done = await page2.approvals.resolve({ id: pending[0]!.approvalId, approved: true });
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Done: sent.');
    expect(sent).toEqual(['bob@example.com']);
    expect(await page2.approvals.list({ sessionId: 'mail' })).toEqual([]);
  });

  it('a lease of a page that went away is dead at once; a live page keeps it', async () => {
    const name = freshName();
    const browser = fakeBrowserLocks();
    const pageA = new IndexedDbStore(name, { locks: browser.locksFor('A') });
    expect((await pageA.checkpoints.acquire('s', 'run-a')).acquired).toBe(true);

    // Another tab while page A lives: the session is busy.
    const pageB = new IndexedDbStore(name, { locks: browser.locksFor('B') });
    expect((await pageB.checkpoints.acquire('s', 'run-b')).acquired).toBe(false);
    expect((await pageB.checkpoints.load('s'))!.leased).toBe(true);

    // Page A is reloaded mid-run: its lease never got released, but its page is gone.
    browser.close('A');
    // (A lease taken in the same millisecond as a page's look at the live pages counts as live:
    // its page may have started since. A real reload takes longer than that; the test waits.)
    await new Promise((resolve) => setTimeout(resolve, 3));
    const pageC = new IndexedDbStore(name, { locks: browser.locksFor('C') });
    expect((await pageC.checkpoints.load('s'))!.leased).toBe(false);
    expect((await pageC.checkpoints.acquire('s', 'run-c')).acquired).toBe(true);
    // ...and the old run is fenced off.
    await expect(pageA.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'step.start', step: 1 } }], { holder: 'run-a' })).rejects.toMatchObject({
      code: 'LOUSHO_SESSION_LEASE_LOST',
    });
  });

  it('without Web Locks, a lease only ends when it runs out', async () => {
    const name = freshName();
    const a = new IndexedDbStore(name, { locks: null, leaseMs: 50 });
    await a.checkpoints.acquire('s', 'run-a');
    const b = new IndexedDbStore(name, { locks: null, leaseMs: 50 });
    expect((await b.checkpoints.acquire('s', 'run-b')).acquired).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect((await b.checkpoints.acquire('s', 'run-b')).acquired).toBe(true);
  });

  it('a write that breaks a rule leaves nothing behind (one transaction per write)', async () => {
    const store = new IndexedDbStore(freshName(), { locks: null });
    await store.checkpoints.acquire('s', 'h');
    const write = (holder: string) => ({
      holder,
      messages: { keep: 0, append: [{ role: 'user' as const, content: 'a' }] },
      run: { progress: { state: 'running' as const, steps: 0, usage: {} as never }, stepUsage: { keep: 0, append: [] }, toolCalls: { keep: 0, append: [] } },
    });
    // No run start on the first write: refused, and the message it carried is not stored.
    await expect(store.checkpoints.save('s', write('h'))).rejects.toMatchObject({ code: 'LOUSHO_CHECKPOINT_INVALID' });
    expect((await store.checkpoints.load('s'))!.messages).toEqual([]);
    await expect(store.checkpoints.save('s', write('someone-else'))).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
  });

  it('stores values as JSON, as the other stores do: what is not JSON does not break a write', async () => {
    const store = new IndexedDbStore(freshName(), { locks: null });
    const [event] = await store.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'tool.done', toolCallId: 'c', result: { at: new Date(0), fn: () => 1 } } as never }]);
    expect(event!.seq).toBe(1);
    expect((await store.sessions.eventsAfter('s', 0))[0]).toMatchObject({ type: 'tool.done', result: { at: '1970-01-01T00:00:00.000Z' } });
  });

  it('says clearly when there is no IndexedDB, when the name is unusable, and when the database is newer', async () => {
    expect(() => new IndexedDbStore('x', { indexedDB: undefined as never, locks: null })).not.toThrow();
    const saved = globalThis.indexedDB;
    try {
      (globalThis as { indexedDB?: unknown }).indexedDB = undefined;
      expect(() => new IndexedDbStore('x')).toThrow(expect.objectContaining({ code: 'LOUSHO_STORE_UNAVAILABLE' }));
    } finally {
      (globalThis as { indexedDB?: unknown }).indexedDB = saved;
    }
    expect(() => new IndexedDbStore('')).toThrow(expect.objectContaining({ code: 'LOUSHO_STORE_UNAVAILABLE' }));
    expect(() => new IndexedDbStore('x', { leaseMs: 0 })).toThrow(expect.objectContaining({ code: 'LOUSHO_STORE_UNAVAILABLE' }));

    const name = freshName();
    await new Promise<void>((resolve, reject) => {
      const req = indexedDB.open(name, SCHEMA_VERSION + 1);
      req.onsuccess = () => (req.result.close(), resolve());
      req.onerror = () => reject(req.error);
    });
    const store = new IndexedDbStore(name, { locks: null });
    await expect(store.sessions.get('s')).rejects.toMatchObject({ code: 'LOUSHO_STORE_VERSION', database: name });
  });

  it('refuses to work after close()', async () => {
    const store = new IndexedDbStore(freshName(), { locks: null });
    await store.sessions.create('s');
    store.close();
    await expect(store.sessions.get('s')).rejects.toMatchObject({ code: 'LOUSHO_STORE_UNAVAILABLE' });
  });
});
