// Node-only entry (`@lousho/core/files`): the file-backed `StorageService`. It stays in core because
// core's own isomorphic features reach the file system through `#node-files` (loadSkills(dir),
// loadSpec(path), fileMemory(), projectInstructions: { file }), and fileMemory() is built on it; the
// root entry never imports this folder statically. `@lousho/build-ai-agent/node` re-exports it.
export { FileStorageService, type FileStorageServiceOptions } from './file-storage.js';
