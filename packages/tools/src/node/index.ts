// Node-only entry (`@lousho/tools/node`): the http tool's pinned-DNS transport. The root entry's
// http tool loads it lazily as its default in Node, so browser bundles never follow it here.
export { createNodeHttpTransport, type NodeHttpTransportOptions } from './http-transport.js';
