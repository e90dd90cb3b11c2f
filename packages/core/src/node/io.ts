// Node-only entry (`@lousho/core/node-io`): the Node halves of core's own isomorphic features, which
// the root entry reaches only through lazy imports (so browser bundles never follow them):
// `FileStorageService` (what fileMemory() is built on; the readers behind loadSkills(dir),
// loadSpec(path) and projectInstructions: { file } are behind `#node-files`) and the http tool's
// pinned-DNS transport (its default in Node). They stay in core because core cannot import
// `@lousho/node`. `@lousho/build-ai-agent/node` re-exports them.
export { FileStorageService, type FileStorageServiceOptions } from './file-storage.js';
export { createNodeHttpTransport, type NodeHttpTransportOptions } from './http-transport.js';
