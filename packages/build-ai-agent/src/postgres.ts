export * from '@lousho/core/postgres';
