/** Bad input and faults: an unreachable database, a schema newer than the code, the connection lost mid-turn. */
import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, serializeError, type AgentStreamEvent, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';
import { PostgresStore, SCHEMA_VERSION } from '../src/index.js';
import { pgBinDir, startCluster, startServer, stopCluster, stopServer, type Cluster } from '../../../scripts/postgres-cluster.mjs';
import { databaseUrl, freshSchema, openStore } from './pg-env.js';

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function admin<T>(work: (client: { query(sql: string, values?: unknown[]): Promise<{ rows: any[] }> }) => Promise<T>): Promise<T> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl! });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function errorOf(promise: Promise<unknown>): Promise<Error & { code: string; hint: string; url?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code: string; hint: string };
  }
  throw new Error('expected a rejection');
}

describe('PostgresStore: an unreachable database at start', () => {
  it('fails with LOUSHO_STORE_UNAVAILABLE naming the URL without its password', async () => {
    const port = await freePort();
    const error = await errorOf(PostgresStore.connect(`postgres://alice:s3cr3t-pw@127.0.0.1:${port}/app`));
    expect(error.code).toBe('LOUSHO_STORE_UNAVAILABLE');
    expect(error.message).toContain(`postgres://alice:***@127.0.0.1:${port}/app`);
    expect(error.message).toMatch(/ECONNREFUSED|connect/);
    expect(error.hint).toMatch(/DATABASE_URL/);
    // The password appears nowhere a user or a log could see it.
    expect(JSON.stringify({ ...serializeError(error), hint: error.hint, url: error.url })).not.toContain('s3cr3t-pw');
  });

  it('refuses bad options before connecting', async () => {
    await expect(PostgresStore.connect('')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_CONFIG' });
    await expect(PostgresStore.connect({ connectionString: 'postgres://x@127.0.0.1/db', schema: 'a; DROP TABLE x' })).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_CONFIG',
    });
  });
});

describe.skipIf(!databaseUrl)('PostgresStore: schema versions', () => {
  it('migrates a new schema and opens it again without changes', async () => {
    const schema = freshSchema();
    const first = await openStore({ schema });
    await first.sessions.create('s', { owner: 'alice' });
    await first.close();
    // Two processes starting at once on an older (here: empty) schema migrate it once.
    const again = await Promise.all([openStore({ schema }), openStore({ schema })]);
    expect(await again[1].sessions.get('s')).toMatchObject({ owner: 'alice' });
    const versions = await admin((c) => c.query(`SELECT version FROM "${schema}".lousho_schema`));
    expect(versions.rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('migrates an older schema (version 0) in one transaction', async () => {
    const schema = freshSchema();
    await admin(async (c) => {
      await c.query(`CREATE SCHEMA "${schema}"`);
      await c.query(`CREATE TABLE "${schema}".lousho_schema (version integer NOT NULL)`);
      await c.query(`INSERT INTO "${schema}".lousho_schema VALUES (0)`);
    });
    const store = await openStore({ schema });
    expect((await store.sessions.create('s')).created).toBe(true);
    expect((await admin((c) => c.query(`SELECT version FROM "${schema}".lousho_schema`))).rows).toEqual([{ version: SCHEMA_VERSION }]);
  });

  it('refuses a schema written by a newer version, saying what to do, and leaves it as it was', async () => {
    const schema = freshSchema();
    const store = await openStore({ schema });
    await store.close();
    await admin((c) => c.query(`UPDATE "${schema}".lousho_schema SET version = $1`, [SCHEMA_VERSION + 1]));
    const error = await errorOf(openStore({ schema }));
    expect(error.code).toBe('LOUSHO_STORE_VERSION');
    expect(error.message).toContain(`schema version ${SCHEMA_VERSION + 1}`);
    expect(error.message).toContain(schema);
    expect(error.hint).toMatch(/Upgrade @lousho\/core/);
    expect((await admin((c) => c.query(`SELECT version FROM "${schema}".lousho_schema`))).rows).toEqual([{ version: SCHEMA_VERSION + 1 }]);
  });

  it('refuses a schema with Lousho tables but no version table', async () => {
    const schema = freshSchema();
    await admin(async (c) => {
      await c.query(`CREATE SCHEMA "${schema}"`);
      await c.query(`CREATE TABLE "${schema}".lousho_sessions (id text)`);
    });
    await expect(openStore({ schema })).rejects.toMatchObject({ code: 'LOUSHO_STORE_CORRUPT' });
  });
});

// Stopping the database mid-turn needs a cluster of this test's own (the scripts' binaries).
const binaries = pgBinDir();
if (!binaries && databaseUrl && process.env.CI !== 'true') console.log('[postgres] Skipping the connection-lost test: it starts its own cluster and no PostgreSQL binaries are installed.');

describe.skipIf((!binaries && process.env.CI !== 'true') || !databaseUrl)('PostgresStore: the connection lost mid-turn', () => {
  let cluster: Cluster | undefined;
  afterAll(() => {
    if (cluster) stopCluster(cluster.dir);
  });

  it('ends the turn with a clear error event, and the session is resumable once the database is back', async () => {
    cluster = await startCluster({ synchronousCommit: true });
    const store = await PostgresStore.connect({ connectionString: cluster.url, leaseMs: 1000 });
    const release = { open: () => {} };
    const started = { count: 0 };
    const gated = defineTool({
      name: 'gated',
      description: 'Waits for the test',
      input: z.object({}),
      async execute(_args, ctx) {
        started.count++;
        if (started.count === 1) await new Promise<void>((resolve) => (release.open = resolve));
        return `ran ${ctx.toolCallId}`;
      },
    });
    const provider: LLMProvider = {
      name: 'script',
      defaultModel: 'script-1',
      async *stream({ messages }): AsyncIterable<StreamChunk> {
        const last = messages[messages.length - 1] as Message;
        if (last.role === 'user' && last.content === 'go') {
          yield { type: 'text-delta', text: 'On it.' };
          yield { type: 'tool-call', index: 0, id: 'call_gated', name: 'gated', arguments: '{}' };
          yield { type: 'finish', finishReason: 'tool_calls' };
          return;
        }
        yield { type: 'text-delta', text: 'Finished.' };
        yield { type: 'finish', finishReason: 'stop' };
      },
    };
    const agent = createAgent({ provider, tools: [gated], store });
    const run = agent.stream('go', { sessionId: 'cut' });
    const events: AgentStreamEvent[] = [];
    const consumed = (async () => {
      for await (const event of run) events.push(event);
    })().catch(() => {});
    const deadline = Date.now() + 20_000;
    while (started.count === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(started.count).toBe(1);

    // The database goes away while the tool runs; the run's next write fails.
    stopServer(cluster.dir);
    release.open();
    await expect(run.result).rejects.toMatchObject({ code: 'LOUSHO_STORE_UNAVAILABLE' });
    await consumed;
    const last = events.at(-1) as Extract<AgentStreamEvent, { type: 'error' }>;
    expect(last.type).toBe('error');
    expect(last.error.code).toBe('LOUSHO_STORE_UNAVAILABLE');
    expect(last.error.message).toContain(`Lost the connection to PostgreSQL at postgres://lousho@127.0.0.1:${cluster.port}/lousho`);
    // Nothing of it could be numbered by the store: the error has no number either.
    expect(last.seq).toBeUndefined();
    expect(events.slice(0, -1).every((event) => typeof event.seq === 'number')).toBe(true);
    // Cut off, not failed: it waits to be resumed.
    expect(agent.sessions.get('cut')!.status).toBe('interrupted');

    // The database is back: the session goes on from its last checkpoint (the model's turn is not asked again).
    startServer(cluster.dir, cluster.port);
    const resumed = await agent.resume('cut');
    expect(resumed.finishReason).toBe('stop');
    expect(resumed.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(resumed.messages[2]).toMatchObject({ toolCallId: 'call_gated' });
    const next = await agent.send('thanks', { sessionId: 'cut' });
    expect(next.messages).toHaveLength(6);
    await store.close();
  }, 60_000);
});
