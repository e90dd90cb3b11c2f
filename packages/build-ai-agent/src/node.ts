// Node only: the HTTP handler's node:http / Express adapter (@lousho/node's Node entry), and the
// Node halves of core's own features: the http tool's Node transport and the file-backed
// StorageService (@lousho/core/node-io).
export * from '@lousho/node/node';
export { createNodeHttpTransport, FileStorageService, type FileStorageServiceOptions, type NodeHttpTransportOptions } from '@lousho/core/node-io';
