// The Node-only entry (`@lousho/node/node`): the HTTP handler's node:http / Express adapter. The
// isomorphic root (channels) never imports this folder.
export { toNodeHandler, createNodeListener, type FetchHandler, type NodeRequestListener, type NodeHandlerOptions } from './http-adapter.js';
export { FileSystemFileStore, type FileSystemFileStoreOptions } from './file-system-file-store.js';
