export * from '@lousho/sqlite';
