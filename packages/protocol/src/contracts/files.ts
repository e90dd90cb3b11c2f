/**
 * The file store: where uploaded attachments live, apart from the event log (which keeps only a
 * reference: id, name, type, size). One small interface, so a memory, file-system or PostgreSQL
 * store can stand behind the handler and the agent alike.
 */

/** A stored file's reference: what the event log and a message part keep, never the bytes. */
export interface StoredFile {
  /** Chosen by the store (never from user input): `f_` and 32 hex digits. */
  id: string;
  /** The session the file was uploaded to; deleting the session deletes it. */
  sessionId: string;
  /** The name it was uploaded with, cleaned (`cleanFileName`): shown to people and to the model. */
  name: string;
  /** Its media type, e.g. `image/png` (checked against the bytes' signature for images on upload). */
  mimeType: string;
  /** Its size in bytes. */
  size: number;
  /** When it was stored, in ms since the epoch. */
  createdAt: number;
}

/** Bytes as a web stream or any async iterable of chunks (a Node stream is one). */
export type FileBody = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** What `FileStore.put` stores. */
export interface FilePut {
  sessionId: string;
  name: string;
  mimeType: string;
  body: FileBody;
  /** The most bytes to keep: past it `put` fails with `LOUSHO_FILE_TOO_LARGE` and stores nothing. */
  maxBytes: number;
}

/** A stored file and its bytes, read as they are needed. */
export interface FileContent {
  file: StoredFile;
  body: AsyncIterable<Uint8Array>;
}

/**
 * Where attachments are kept (`createAgent({ files })`). `put` stores all of the bytes or
 * nothing (a body that breaks off or grows past `maxBytes` leaves no trace); the others answer
 * `undefined` / `false` / `0` for what is not there.
 */
export interface FileStore {
  /** Stores the body as a new file of the session (refused past `maxBytes`) and resolves with its reference. */
  put(file: FilePut): Promise<StoredFile>;
  /** The reference alone (no bytes read). */
  info(id: string): Promise<StoredFile | undefined>;
  /** The file with its bytes, or undefined when there is none. */
  get(id: string): Promise<FileContent | undefined>;
  /** Deletes one file; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Deletes every file of a session; the number deleted. */
  deleteSession(sessionId: string): Promise<number>;
}
