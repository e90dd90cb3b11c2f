export * from '@lousho/core/indexeddb';
