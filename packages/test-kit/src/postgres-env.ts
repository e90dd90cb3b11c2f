/**
 * What the PostgreSQL tests share: the database from the globalSetup (`inject('postgres')`, see
 * postgres-setup.ts), a schema of their own per test file (so files run in parallel), and stores
 * closed at the end. The store is passed in (`openOnSchema`): this kit does not depend on
 * @lousho/postgres, whose tests use it.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, inject } from 'vitest';
import type { PostgresContext } from './postgres-setup.js';

const context: PostgresContext = inject('postgres');
// With CI=true and no PostgreSQL, every PostgreSQL test file fails here instead of skipping.
if ('error' in context) throw new Error(context.error);

/** The database URL, or undefined when the PostgreSQL tests are skipped (the reason was printed once). */
export const databaseUrl: string | undefined = 'url' in context ? context.url : undefined;
/**
 * `url` with `synchronous_commit=on` for every connection made with it (the test clusters run with
 * it off, for speed): the fault tests' processes answer a commit only once it is in the WAL.
 */
export function synchronousCommit(url: string): string {
  const withOption = new URL(url);
  withOption.searchParams.set('options', '-c synchronous_commit=on');
  return withOption.toString();
}

/** What `SHOW synchronous_commit` answers on a connection made with `url`. */
export async function synchronousCommitOf(url: string): Promise<string> {
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return ((await client.query('SHOW synchronous_commit')).rows[0] as { synchronous_commit: string }).synchronous_commit;
  } finally {
    await client.end();
  }
}

/** True when the database is a throwaway cluster this run started (tests may stop and start it). */
export const ownCluster = 'url' in context && !context.external;

/** A new schema name, unique to this test file and call. */
export function freshSchema(tag = 't'): string {
  return `${tag}_${randomBytes(5).toString('hex')}`;
}

const opened: { close(): Promise<void> }[] = [];
const schemas = new Set<string>();

/** A store `open` makes on a schema of this file (a fresh one unless given); closed, and its schema dropped, after the file. */
export async function openOnSchema<S extends { close(): Promise<void> }>(open: (connectionString: string, schema: string) => Promise<S>, schema = freshSchema()): Promise<S> {
  schemas.add(schema);
  const store = await open(databaseUrl!, schema);
  opened.push(store);
  return store;
}

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  if (!databaseUrl || schemas.size === 0) return;
  const pg = (await import('pg')).default;
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    for (const schema of schemas) await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } catch {
    // A test may have stopped the database; the throwaway cluster goes away anyway.
  } finally {
    await client.end().catch(() => {});
  }
});
