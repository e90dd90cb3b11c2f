// The Node-only entry (`@lousho/node/node`): the HTTP handler's node:http / Express adapter and the
// http tool's Node transport. The isomorphic root (channels) never imports this folder.
export { createNodeHttpTransport } from './http-transport.js';
export type { NodeHttpTransportOptions } from './http-transport.js';
export { toNodeHandler, createNodeListener, type FetchHandler, type NodeRequestListener, type NodeHandlerOptions } from './http-adapter.js';
