// Node-only entry (its own subpath): nothing reachable from the root entry imports this folder statically.
export { createNodeHttpTransport } from './http-transport.js';
export type { NodeHttpTransportOptions } from './http-transport.js';
export { toNodeHandler, createNodeListener, type FetchHandler, type NodeRequestListener, type NodeHandlerOptions } from './http-adapter.js';
export { FileStorageService, type FileStorageServiceOptions } from './file-storage.js';
