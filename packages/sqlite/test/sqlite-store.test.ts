import { createRequire } from 'node:module';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { storeContract } from '@lousho/core/testing/stores';
import { MARKER, writeAndReadBack } from '@lousho/core/testing/stores';
import { EncryptionUtils } from '@lousho/core';
import { readFileSync, existsSync } from 'node:fs';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'lousho-sqlite-'));
let n = 0;
const fresh = () => join(dir, `store-${++n}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

storeContract('SqliteStore', () => new SqliteStore(fresh()));
const key = EncryptionUtils.generateKey();
storeContract('SqliteStore (encrypted)', () => new SqliteStore(fresh(), { encryption: { key } }));

describe('SqliteStore: encryption', () => {
  it('keeps no plaintext in the file: events, transcript, run state, approvals and pending approvals are sealed', async () => {
    const path = fresh();
    const store = new SqliteStore(path, { encryption: { key } });
    await writeAndReadBack(store);
    store.close();
    for (const file of [path, `${path}-wal`]) if (existsSync(file)) expect(readFileSync(file).includes(MARKER)).toBe(false);
    const Database = require('better-sqlite3');
    const db = new Database(path, { readonly: true });
    for (const [table, column] of [['lousho_events', 'body'], ['lousho_messages', 'body'], ['lousho_run_items', 'body'], ['lousho_approvals', 'body'], ['lousho_checkpoints', 'run_start'], ['lousho_checkpoints', 'run_progress'], ['lousho_sessions', 'pending_approval']]) {
      const values = (db.prepare(`SELECT ${column} AS v FROM ${table}`).all() as { v: string }[]).map((r) => r.v);
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).toMatch(/^v1\./);
    }
    // The metadata stays plain, so the store's own queries work.
    expect(db.prepare('SELECT id, owner, status, last_seq FROM lousho_sessions').get()).toEqual({ id: 'enc-1', owner: 'alice', status: 'awaiting-approval', last_seq: 3 });
    db.close();
    // The same file with the key reads back; without it, or with another key, a clear error.
    const again = new SqliteStore(path, { encryption: { key } });
    expect((await again.checkpoints.load('enc-1'))?.messages[0]).toEqual({ role: 'user', content: MARKER });
    again.close();
    const keyless = new SqliteStore(path);
    expect(() => keyless.checkpoints.load('enc-1')).toThrow(expect.objectContaining({ code: 'LOUSHO_DECRYPTION_FAILED', message: expect.stringContaining('no encryption key') }));
    keyless.close();
    const wrong = new SqliteStore(path, { encryption: { key: EncryptionUtils.generateKey() } });
    expect(() => wrong.sessions.eventsAfter('enc-1', 0)).toThrow(expect.objectContaining({ code: 'LOUSHO_DECRYPTION_FAILED' }));
    wrong.close();
  });

  it('refuses a bad key, and key rotation, before opening the file', () => {
    expect(() => new SqliteStore(fresh(), { encryption: { key: 'nope' } })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_ENCRYPTION_KEY' }));
    expect(() => new SqliteStore(fresh(), { encryption: { key, previousKeys: [key] } as never })).toThrow(/key rotation is not supported/);
  });
});

describe('SqliteStore: the file', () => {
  it('uses WAL and records its schema version', () => {
    const path = fresh();
    new SqliteStore(path).close();
    // Opening again migrates nothing and keeps what is there.
    const store = new SqliteStore(path);
    store.sessions.create('s', { owner: 'a' });
    store.close();
    const again = new SqliteStore(path);
    expect(again.sessions.get('s')).toMatchObject({ owner: 'a' });
    again.close();
    const Database = require('better-sqlite3');
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });

  it('refuses a file of random bytes with an error that names it and says what to do, leaving it as it was', () => {
    const path = fresh();
    const garbage = Buffer.alloc(8192, 0x5a);
    writeFileSync(path, garbage);
    let error: unknown;
    try {
      new SqliteStore(path);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'LOUSHO_STORE_CORRUPT', path });
    expect((error as Error).message).toContain(path);
    expect((error as { hint: string }).hint).toMatch(/backup|move it away/);
    expect(require('node:fs').readFileSync(path).equals(garbage)).toBe(true);
  });

  it('refuses a store whose pages are damaged, naming the file', () => {
    const path = fresh();
    const store = new SqliteStore(path);
    store.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'run.start', model: 'm' } }]);
    store.close();
    const fs = require('node:fs');
    const bytes: Buffer = fs.readFileSync(path);
    // Keep the 100-byte header, scribble over the schema page and everything after it.
    bytes.fill(0xff, 100);
    fs.writeFileSync(path, bytes);
    for (const suffix of ['-wal', '-shm']) rmSync(path + suffix, { force: true });
    expect(() => new SqliteStore(path)).toThrow(expect.objectContaining({ code: 'LOUSHO_STORE_CORRUPT', path }));
  });

  it('refuses a file from a newer schema version instead of misreading or resetting it', () => {
    const path = fresh();
    new SqliteStore(path).close();
    const Database = require('better-sqlite3');
    const db = new Database(path);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    let error: unknown;
    try {
      new SqliteStore(path);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'LOUSHO_STORE_VERSION', path });
    expect((error as Error).message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect((error as { hint: string }).hint).toMatch(/Upgrade/);
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1);
    check.close();
  });

  it('refuses an SQLite database that belongs to something else', () => {
    const path = fresh();
    const Database = require('better-sqlite3');
    const db = new Database(path);
    db.exec('CREATE TABLE invoices (id INTEGER PRIMARY KEY)');
    db.close();
    expect(() => new SqliteStore(path)).toThrow(expect.objectContaining({ code: 'LOUSHO_STORE_CORRUPT', message: expect.stringContaining('invoices') }));
  });

  it('lets two connections on one file see each other, with one lease holder at a time', async () => {
    const path = fresh();
    const a = new SqliteStore(path);
    const b = new SqliteStore(path);
    expect(a.checkpoints.acquire('s', 'ha').acquired).toBe(true);
    expect(b.checkpoints.acquire('s', 'hb').acquired).toBe(false);
    a.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'run.start', model: 'm' } }]);
    const numbered = b.sessions.appendEvents('s', [{ runId: 'r', event: { type: 'step.start', step: 1 } }]);
    expect(numbered[0]!.seq).toBe(2);
    a.close();
    b.close();
  });
});
