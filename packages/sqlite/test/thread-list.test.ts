import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SqliteStore, SCHEMA_VERSION } from '../src/index.js';
import { MIGRATIONS } from '../src/schema.js';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'lousho-sqlite-threads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('SqliteStore: thread lists', () => {
  it('brings a schema-1 file up to date and keeps its sessions listable', () => {
    const path = join(dir, 'v1.db');
    const Database = require('better-sqlite3');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]);
    old.pragma('user_version = 1');
    old.prepare("INSERT INTO lousho_sessions VALUES ('old', 'alice', 'idle', NULL, 0, 0, 1, 5)").run();
    old.close();
    const store = new SqliteStore(path);
    expect(store.sessions.listPage({ owner: 'alice', limit: 10 })).toEqual({
      sessions: [{ id: 'old', owner: 'alice', status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: 1, updatedAt: 5 }],
    });
    store.sessions.rename('old', 'Renamed');
    expect(store.sessions.get('old')!.title).toBe('Renamed');
    store.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('brings a schema-2 file up to date: its sessions list without usage until a run ends, then count it', () => {
    const path = join(dir, 'v2.db');
    const Database = require('better-sqlite3');
    const old = new Database(path);
    old.exec(MIGRATIONS[0]);
    old.exec(MIGRATIONS[1]);
    old.pragma('user_version = 2');
    old.prepare("INSERT INTO lousho_sessions VALUES ('old', 'alice', 'idle', NULL, 0, 0, 1, 5, 'Old title')").run();
    old.close();
    const store = new SqliteStore(path);
    expect(store.sessions.listPage({ owner: 'alice', limit: 10 }).sessions).toEqual([
      { id: 'old', owner: 'alice', status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: 1, updatedAt: 5, title: 'Old title' },
    ]);
    const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6, costUsd: 0.5, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 4, completionTokens: 2 };
    store.sessions.appendEvents('old', [{ runId: 'r1', event: { type: 'run.done', finishReason: 'stop', steps: 1, usage } }]);
    expect(store.sessions.listPage({ owner: 'alice', limit: 10 }).sessions[0]!.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6, costUsd: 0.5 });
    store.close();
    const check = new Database(path, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    check.close();
  });

  it('lists a page with an index range scan on (owner, updated_at, id), not a sort', () => {
    const path = join(dir, 'plan.db');
    new SqliteStore(path).close();
    const Database = require('better-sqlite3');
    const db = new Database(path, { readonly: true });
    const plan = db
      .prepare("EXPLAIN QUERY PLAN SELECT * FROM lousho_sessions WHERE owner = ? AND (updated_at, id) < (?, ?) ORDER BY updated_at DESC, id DESC LIMIT 21")
      .all('alice', 10, 'x')
      .map((row: { detail: string }) => row.detail)
      .join('\n');
    db.close();
    expect(plan).toContain('lousho_sessions_by_activity');
    expect(plan).not.toContain('TEMP B-TREE');
  });
});
