export * from '@lousho/postgres';
