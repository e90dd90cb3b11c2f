// Attachments: the file store contract, the in-memory store, and what a store of your own is built from.
export type { FileStore, StoredFile, FilePut, FileBody, FileContent } from '../contracts/files.js';
export { MemoryFileStore } from './memory-file-store.js';
export { limitedChunks, chunksOf, readAll, newFileId, isFileId, cleanFileName, fileTooLarge, fileNotFound } from './file-bytes.js';
export { mediaTypeOfBytes, bytesMatchType, SIGNATURE_BYTES } from './signature.js';
export { acceptUpload, attachmentOf, DEFAULT_FILE_TYPES, DEFAULT_MAX_FILE_BYTES, type Upload, type UploadLimits } from './accept-upload.js';
