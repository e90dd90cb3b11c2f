// Node only: the HTTP handler's node:http / Express adapter (@lousho/node's Node entry), the http
// tool's Node transport (@lousho/tools/node), and the file-backed StorageService of core's
// fileMemory() (@lousho/core/node-io).
export * from '@lousho/node/node';
export { createNodeHttpTransport, type NodeHttpTransportOptions } from '@lousho/tools/node';
export { FileStorageService, type FileStorageServiceOptions } from '@lousho/core/node-io';
