export { defineMemory } from './define-memory.js';
export { inMemoryMemory, storageMemory, type StorageMemoryOptions } from './storage-memory.js';
export { fileMemory, type FileMemoryOptions } from './file-memory.js';
export type { Memory, MemoryDefinition, MemoryItem, MemoryProvider, MemoryRecallOptions, MemoryScope, MemoryScopeContext } from './types.js';
