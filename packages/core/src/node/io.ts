// Node-only entry (`@lousho/core/node-io`): the Node half of core's own isomorphic features, which
// the root entry reaches only through lazy imports (so browser bundles never follow it):
// `FileStorageService` (what fileMemory() is built on; the readers behind loadSkills(dir),
// loadSpec(path) and projectInstructions: { file } are behind `#node-files`). It stays in core
// because core cannot import `@lousho/node`. `@lousho/build-ai-agent/node` re-exports it. (The http
// tool's Node transport is in @lousho/tools, at `@lousho/tools/node`.)
export { FileStorageService, type FileStorageServiceOptions } from './file-storage.js';
