import { ERROR_CODES, SDKError, cleanFileName, isFileId, limitedChunks, newFileId, type FileContent, type FilePut, type FileStore, type StoredFile } from '@lousho/core';
import type { PgPool, PgQueryable } from './driver.js';
import { PostgresStoreError, connectionLostError, isConnectionError, queryFailedError, redactUrl, unreachableError } from './errors.js';
import { loadDriver } from './postgres-store.js';
import { checkSchemaName, ident } from './schema.js';

/** Options of `PostgresFileStore.connect()`: the connection (a URL or your own pool) and the schema. */
export interface PostgresFileStoreOptions {
  /** `postgres://user:password@host:5432/db`. Needed unless `pool` is given. */
  connectionString?: string;
  /** A `pg.Pool` of your own (the store never ends it): e.g. the one your `PostgresStore` uses. */
  pool?: PgPool;
  /** The schema of the tables (created if missing). Default `public`. */
  schema?: string;
  /** Connections in the pool the store creates (default 4). */
  max?: number;
}

/** Bytes per stored row: a file is kept as rows of at most this many bytes, so neither side holds it whole. */
const ROW_BYTES = 256 * 1024;

/**
 * A `FileStore` in PostgreSQL, for several server processes sharing attachments (Node only;
 * needs `pg@8`). A file is its reference row (`lousho_files`) and its bytes in rows of 256 KiB
 * (`lousho_file_chunks`), written in one transaction: an upload that fails or breaks off leaves
 * nothing. Its tables sit beside `PostgresStore`'s and are created at `connect()` when missing.
 */
export class PostgresFileStore implements FileStore {
  readonly #pool: PgPool;
  readonly #ownsPool: boolean;
  readonly #s: string;
  readonly #url: string;

  private constructor(pool: PgPool, ownsPool: boolean, schema: string, url: string) {
    this.#pool = pool;
    this.#ownsPool = ownsPool;
    this.#s = ident(schema);
    this.#url = url;
  }

  /** Connects (a URL or your pool) and creates the file tables when missing. */
  static async connect(target: string | PostgresFileStoreOptions): Promise<PostgresFileStore> {
    const options: PostgresFileStoreOptions = typeof target === 'string' ? { connectionString: target } : { ...target };
    const url = redactUrl(options.connectionString);
    const schema = options.schema ?? 'public';
    const invalid = (message: string): PostgresStoreError => new PostgresStoreError(ERROR_CODES.LOUSHO_INVALID_CONFIG, url, message, 'See docs/postgres.md for the options.');
    if (!options.pool && !options.connectionString) throw invalid('PostgresFileStore.connect() needs a connection string (e.g. process.env.DATABASE_URL) or a `pool`.');
    if (!checkSchemaName(schema)) throw invalid(`The schema name '${schema}' is not allowed: use letters, digits and _ (at most 40, not starting with a digit).`);
    let pool = options.pool;
    const ownsPool = !pool;
    if (!pool) {
      const driver = await loadDriver(url);
      pool = new driver.Pool({ connectionString: options.connectionString, max: options.max ?? 4, application_name: 'lousho-files' });
      pool.on('error', () => {});
    }
    const store = new PostgresFileStore(pool, ownsPool, schema, url);
    try {
      await store.#transaction(async (db) => {
        // One process creates the tables at a time (CREATE ... IF NOT EXISTS races on its own).
        await db.query(`SELECT pg_advisory_xact_lock(hashtext($1))`, [`lousho_files:${schema}`]);
        await db.query(`CREATE SCHEMA IF NOT EXISTS ${store.#s}`);
        await db.query(
          `CREATE TABLE IF NOT EXISTS ${store.#s}.lousho_files (id text PRIMARY KEY, session_id text NOT NULL, name text NOT NULL, mime_type text NOT NULL, size bigint NOT NULL, created_at bigint NOT NULL)`,
        );
        await db.query(`CREATE INDEX IF NOT EXISTS lousho_files_by_session ON ${store.#s}.lousho_files (session_id)`);
        await db.query(
          `CREATE TABLE IF NOT EXISTS ${store.#s}.lousho_file_chunks (file_id text NOT NULL REFERENCES ${store.#s}.lousho_files (id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED, n integer NOT NULL, bytes bytea NOT NULL, PRIMARY KEY (file_id, n))`,
        );
      });
    } catch (error) {
      if (ownsPool) await pool.end().catch(() => {});
      throw isConnectionError(error) ? unreachableError(url, error) : error;
    }
    return store;
  }

  /** Stores the body as a new file of the session (refused past `maxBytes`, leaving nothing) and resolves with its reference. */
  async put({ sessionId, name, mimeType, body, maxBytes }: FilePut): Promise<StoredFile> {
    const id = newFileId();
    return this.#transaction(async (db) => {
      let n = 0;
      let size = 0;
      let pending: Uint8Array[] = [];
      let pendingBytes = 0;
      const flush = async (): Promise<void> => {
        if (pendingBytes === 0) return;
        await db.query(`INSERT INTO ${this.#s}.lousho_file_chunks (file_id, n, bytes) VALUES ($1, $2, $3)`, [id, n++, Buffer.concat(pending, pendingBytes)]);
        pending = [];
        pendingBytes = 0;
      };
      for await (const chunk of limitedChunks(body, maxBytes)) {
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        size += chunk.byteLength;
        if (pendingBytes >= ROW_BYTES) await flush();
      }
      await flush();
      const file: StoredFile = { id, sessionId, name: cleanFileName(name), mimeType, size, createdAt: Date.now() };
      await db.query(`INSERT INTO ${this.#s}.lousho_files (id, session_id, name, mime_type, size, created_at) VALUES ($1, $2, $3, $4, $5, $6)`, [
        id,
        sessionId,
        file.name,
        mimeType,
        size,
        file.createdAt,
      ]);
      return file;
    });
  }

  async info(id: string): Promise<StoredFile | undefined> {
    if (!isFileId(id)) return undefined;
    const { rows } = await this.#query<FileRow>(`SELECT * FROM ${this.#s}.lousho_files WHERE id = $1`, [id]);
    return rows[0] && fileOf(rows[0]);
  }

  /** The file with its bytes, or undefined when there is none. */
  async get(id: string): Promise<FileContent | undefined> {
    const file = await this.info(id);
    if (!file) return undefined;
    return { file, body: this.#chunks(id) };
  }

  /** The bytes row by row: one row in memory at a time. */
  async *#chunks(id: string): AsyncGenerator<Uint8Array> {
    for (let n = 0; ; n++) {
      const { rows } = await this.#query<{ bytes: Buffer }>(`SELECT bytes FROM ${this.#s}.lousho_file_chunks WHERE file_id = $1 AND n = $2`, [id, n]);
      if (!rows[0]) return;
      yield new Uint8Array(rows[0].bytes.buffer, rows[0].bytes.byteOffset, rows[0].bytes.byteLength);
    }
  }

  /** Deletes one file; false when there was none. */
  async delete(id: string): Promise<boolean> {
    if (!isFileId(id)) return false;
    const { rowCount } = await this.#query(`DELETE FROM ${this.#s}.lousho_files WHERE id = $1`, [id]);
    return (rowCount ?? 0) > 0;
  }

  async deleteSession(sessionId: string): Promise<number> {
    const { rowCount } = await this.#query(`DELETE FROM ${this.#s}.lousho_files WHERE session_id = $1`, [sessionId]);
    return rowCount ?? 0;
  }

  /** Closes the pool (unless it was yours). */
  async close(): Promise<void> {
    if (this.#ownsPool) await this.#pool.end().catch(() => {});
  }

  async #query<R>(sql: string, values: unknown[]): Promise<{ rows: R[]; rowCount: number | null }> {
    try {
      return await this.#pool.query<R>(sql, values);
    } catch (error) {
      throw this.#translate(error);
    }
  }

  async #transaction<T>(work: (db: PgQueryable) => Promise<T>): Promise<T> {
    let client;
    try {
      client = await this.#pool.connect();
    } catch (error) {
      throw unreachableError(this.#url, error);
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      if (isConnectionError(error)) broken = error as Error;
      else await client.query('ROLLBACK').catch(() => {});
      throw this.#translate(error);
    } finally {
      client.release(broken ?? false);
    }
  }

  #translate(error: unknown): unknown {
    if (SDKError.is(error)) return error;
    if (isConnectionError(error)) return connectionLostError(this.#url, error);
    // A database's refusal carries its severity; anything else (a body that broke off) stays as it is.
    return typeof (error as { severity?: unknown } | undefined)?.severity === 'string' ? queryFailedError(this.#url, error) : error;
  }
}

interface FileRow {
  id: string;
  session_id: string;
  name: string;
  mime_type: string;
  size: string | number;
  created_at: string | number;
}

function fileOf(row: FileRow): StoredFile {
  return { id: row.id, sessionId: row.session_id, name: row.name, mimeType: row.mime_type, size: Number(row.size), createdAt: Number(row.created_at) };
}
