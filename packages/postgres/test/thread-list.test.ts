import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { PostgresStore, SCHEMA_VERSION } from '../src/index.js';
import { MIGRATIONS, ident } from '../src/schema.js';
import { databaseUrl, freshSchema } from './pg-env.js';

describe.skipIf(!databaseUrl)('PostgresStore: thread lists', () => {
  it('brings a schema-1 database up to date, keeps its sessions listable, and adds the (owner, updated_at, id) index', async () => {
    const schema = freshSchema('v1');
    const s = ident(schema);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await pool.query(`CREATE SCHEMA ${s}`);
      await pool.query(`CREATE TABLE ${s}.lousho_schema (version integer NOT NULL)`);
      await pool.query(MIGRATIONS[0]!(schema));
      await pool.query(`INSERT INTO ${s}.lousho_schema (version) VALUES (1)`);
      await pool.query(`INSERT INTO ${s}.lousho_sessions VALUES ('old', 'alice', 'idle', NULL, 0, 0, 1, 5)`);
      const store = await PostgresStore.connect({ connectionString: databaseUrl!, schema });
      try {
        expect(await store.sessions.listPage({ owner: 'alice', limit: 10 })).toEqual({
          sessions: [{ id: 'old', owner: 'alice', status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: 1, updatedAt: 5 }],
        });
        await store.sessions.rename('old', 'Renamed');
        expect((await store.sessions.get('old'))!.title).toBe('Renamed');
      } finally {
        await store.close();
      }
      expect((await pool.query(`SELECT version FROM ${s}.lousho_schema`)).rows).toEqual([{ version: SCHEMA_VERSION }]);
      // The page query's index (with one row the planner would rather scan, so the plan says nothing here; the bench times it at 100,000).
      const indexes = await pool.query(`SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND indexname = 'lousho_sessions_by_activity'`, [schema]);
      expect(indexes.rows[0]?.indexdef).toContain('(owner, updated_at DESC, id DESC)');
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      await pool.end();
    }
  });
  it('brings a schema-2 database up to date: its sessions list without usage until a run ends, then count it', async () => {
    const schema = freshSchema('v2');
    const s = ident(schema);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
    try {
      await pool.query(`CREATE SCHEMA ${s}`);
      await pool.query(`CREATE TABLE ${s}.lousho_schema (version integer NOT NULL)`);
      await pool.query(MIGRATIONS[0]!(schema));
      await pool.query(MIGRATIONS[1]!(schema));
      await pool.query(`INSERT INTO ${s}.lousho_schema (version) VALUES (2)`);
      await pool.query(`INSERT INTO ${s}.lousho_sessions VALUES ('old', 'alice', 'idle', NULL, 0, 0, 1, 5, 'Old title')`);
      const store = await PostgresStore.connect({ connectionString: databaseUrl!, schema });
      try {
        expect((await store.sessions.listPage({ owner: 'alice', limit: 10 })).sessions).toEqual([
          { id: 'old', owner: 'alice', status: 'idle', pendingApproval: null, runStartIndex: 0, lastSeq: 0, createdAt: 1, updatedAt: 5, title: 'Old title' },
        ]);
        const usage = { inputTokens: 4, outputTokens: 2, totalTokens: 6, costUsd: 0.5, estimated: false, modelCalls: 1, byModel: {}, promptTokens: 4, completionTokens: 2 };
        await store.sessions.appendEvents('old', [{ runId: 'r1', event: { type: 'run.done', finishReason: 'stop', steps: 1, usage } }]);
        expect((await store.sessions.listPage({ owner: 'alice', limit: 10 })).sessions[0]!.usage).toEqual({ inputTokens: 4, outputTokens: 2, totalTokens: 6, costUsd: 0.5 });
      } finally {
        await store.close();
      }
      expect((await pool.query(`SELECT version FROM ${s}.lousho_schema`)).rows).toEqual([{ version: SCHEMA_VERSION }]);
    } finally {
      await pool.query(`DROP SCHEMA IF EXISTS ${s} CASCADE`);
      await pool.end();
    }
  });
});
