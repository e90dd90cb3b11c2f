import { limitedChunks, newFileId, readAll, cleanFileName } from '@lousho/protocol';
import type { FileContent, FilePut, FileStore, StoredFile } from '@lousho/protocol';

/**
 * A `FileStore` in this process's memory: for tests, the in-process transport and demos. Files
 * are gone when the process ends; a server uses the file-system or PostgreSQL store.
 */
export class MemoryFileStore implements FileStore {
  readonly #files = new Map<string, { file: StoredFile; bytes: Uint8Array }>();

  /** Stores the body as a new file of the session (refused past `maxBytes`, leaving nothing) and resolves with its reference. */
  async put({ sessionId, name, mimeType, body, maxBytes }: FilePut): Promise<StoredFile> {
    // Read whole before anything is kept: a body that fails leaves no trace.
    const bytes = await readAll(limitedChunks(body, maxBytes));
    const file: StoredFile = { id: newFileId(), sessionId, name: cleanFileName(name), mimeType, size: bytes.byteLength, createdAt: Date.now() };
    this.#files.set(file.id, { file, bytes });
    return { ...file };
  }

  async info(id: string): Promise<StoredFile | undefined> {
    const entry = this.#files.get(id);
    return entry && { ...entry.file };
  }

  /** The file with its bytes, or undefined when there is none. */
  async get(id: string): Promise<FileContent | undefined> {
    const entry = this.#files.get(id);
    if (!entry) return undefined;
    const { bytes } = entry;
    return { file: { ...entry.file }, body: (async function* () { yield bytes.slice(); })() };
  }

  /** Deletes one file; false when there was none. */
  async delete(id: string): Promise<boolean> {
    return this.#files.delete(id);
  }

  async deleteSession(sessionId: string): Promise<number> {
    let count = 0;
    for (const [id, { file }] of this.#files) {
      if (file.sessionId === sessionId && this.#files.delete(id)) count++;
    }
    return count;
  }
}
