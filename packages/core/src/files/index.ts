// Attachments: the file store contract, the in-memory store, and what a store of your own is built from.
export type { FileStore, StoredFile, FilePut, FileBody, FileContent } from '@lousho/protocol';
export { MemoryFileStore } from './memory-file-store.js';
export { limitedChunks, chunksOf, readAll, newFileId, isFileId, cleanFileName, fileTooLarge, fileNotFound } from '@lousho/protocol';
export { mediaTypeOfBytes, bytesMatchType, SIGNATURE_BYTES } from '@lousho/protocol';
export { acceptUpload, attachmentOf, DEFAULT_FILE_TYPES, DEFAULT_MAX_FILE_BYTES, type Upload, type UploadLimits } from '@lousho/protocol';
