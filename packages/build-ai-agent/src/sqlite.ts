export * from '@lousho/core/sqlite';
