// Node only: the HTTP handler's node:http / Express adapter and the http tool's Node transport
// (@lousho/node's Node entry), and the file-backed StorageService (core's, behind its file features).
export * from '@lousho/node/node';
export { FileStorageService, type FileStorageServiceOptions } from '@lousho/core/files';
