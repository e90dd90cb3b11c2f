import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, readdir, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ERROR_CODES, SDKError, cleanFileName, isFileId, limitedChunks, newFileId, type FileContent, type FilePut, type FileStore, type StoredFile } from '@lousho/core';

/** Options of `FileSystemFileStore`. */
export interface FileSystemFileStoreOptions {
  /** The folder that holds the files (created on first write). */
  dir: string;
  /** `fsync` a file before it is renamed into place, so a power loss keeps all of it or none (default true). */
  fsync?: boolean;
}

/**
 * A `FileStore` in a folder, for Node servers (the default store of attachments). Layout:
 * `blobs/<id>` (the bytes), `meta/<id>.json` (the reference), `sessions/<sha256 of the session
 * id>/<id>` (an empty mark per file, so a session's files are found without a scan). Names on
 * disk are file ids the store made and hashes, never anything a user sent. A file is written to
 * `tmp/` and renamed into place once whole; its reference is written last, so a reader sees a
 * whole file or none. Several processes may share the folder.
 */
export class FileSystemFileStore implements FileStore {
  readonly dir: string;
  readonly #fsync: boolean;

  constructor(options: FileSystemFileStoreOptions) {
    if (!options || typeof options.dir !== 'string' || options.dir === '') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'FileSystemFileStore needs { dir }: the folder to keep uploaded files in.', {
        hint: "new FileSystemFileStore({ dir: './data/files' })",
      });
    }
    this.dir = options.dir;
    this.#fsync = options.fsync ?? true;
  }

  /** Stores the body as a new file of the session (refused past `maxBytes`, leaving nothing) and resolves with its reference. */
  async put({ sessionId, name, mimeType, body, maxBytes }: FilePut): Promise<StoredFile> {
    const id = newFileId();
    const tmp = join(this.dir, 'tmp');
    await Promise.all(['tmp', 'blobs', 'meta', join('sessions', sessionKey(sessionId))].map((sub) => mkdir(join(this.dir, sub), { recursive: true })));
    const part = join(tmp, `${id}.${randomBytes(4).toString('hex')}.part`);
    let size = 0;
    const handle = await open(part, 'wx', 0o600);
    try {
      try {
        for await (const chunk of limitedChunks(body, maxBytes)) {
          await handle.write(chunk);
          size += chunk.byteLength;
        }
        if (this.#fsync) await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(part, this.#blob(id));
    } catch (error) {
      await unlink(part).catch(() => {});
      throw error;
    }
    const file: StoredFile = { id, sessionId, name: cleanFileName(name), mimeType, size, createdAt: Date.now() };
    await this.#writeAtomic(this.#meta(id), JSON.stringify(file));
    await writeFile(join(this.dir, 'sessions', sessionKey(sessionId), id), '');
    return file;
  }

  async info(id: string): Promise<StoredFile | undefined> {
    if (!isFileId(id)) return undefined;
    try {
      return JSON.parse(await readFile(this.#meta(id), 'utf8')) as StoredFile;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  /** The file with its bytes, or undefined when there is none. */
  async get(id: string): Promise<FileContent | undefined> {
    const file = await this.info(id);
    if (!file) return undefined;
    // Opened now, so a file deleted after this answer still reads whole (POSIX keeps it until closed).
    const handle = await open(this.#blob(id), 'r').catch((error: unknown) => {
      if (isMissing(error)) return undefined;
      throw error;
    });
    if (!handle) return undefined;
    return { file, body: handle.createReadStream({ highWaterMark: 64 * 1024 }) as AsyncIterable<Uint8Array> };
  }

  /** Deletes one file; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const file = await this.info(id);
    if (!file) return false;
    // The reference goes first: from then on the file is not there, whatever is left to remove.
    try {
      await unlink(this.#meta(id));
    } catch (error) {
      if (isMissing(error)) return false;
      throw error;
    }
    await Promise.all([rm(this.#blob(id), { force: true }), rm(join(this.dir, 'sessions', sessionKey(file.sessionId), id), { force: true })]);
    return true;
  }

  async deleteSession(sessionId: string): Promise<number> {
    const folder = join(this.dir, 'sessions', sessionKey(sessionId));
    let ids: string[];
    try {
      ids = await readdir(folder);
    } catch (error) {
      if (isMissing(error)) return 0;
      throw error;
    }
    let count = 0;
    for (const id of ids.filter(isFileId)) if (await this.delete(id)) count++;
    await rm(folder, { recursive: true, force: true });
    return count;
  }

  #blob(id: string): string {
    return join(this.dir, 'blobs', id);
  }

  #meta(id: string): string {
    return join(this.dir, 'meta', `${id}.json`);
  }

  async #writeAtomic(path: string, text: string): Promise<void> {
    const tmp = join(this.dir, 'tmp', `${randomBytes(8).toString('hex')}.json`);
    const handle = await open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text);
      if (this.#fsync) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, path);
  }
}

/** A session id as a folder name: its SHA-256, so any id (slashes, dots) is one safe name. */
function sessionKey(sessionId: string): string {
  return createHash('sha256').update(sessionId).digest('hex');
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | undefined)?.code === 'ENOENT';
}
