export { checkStorageKey, storageKeySegment, MemoryStorageService, WebStorageService, type StorageService, type WebStorageLike } from './storage-service.js';
export { StorageServiceApprovalStore } from './approval-store.js';
export { LocalStorageCheckpointStore, type LocalStorageCheckpointStoreOptions } from './checkpoint-store.js';
