export { checkStorageKey, storageKeySegment, MemoryStorageService, WebStorageService, type WebStorageLike } from './storage-service.js';
export type { StorageService } from '@lousho/protocol';
export { StorageServiceApprovalStore } from './approval-store.js';
export { LocalStorageCheckpointStore, type LocalStorageCheckpointStoreOptions } from './checkpoint-store.js';
