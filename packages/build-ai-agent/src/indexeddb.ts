export * from '@lousho/indexeddb';
