export * from '@lousho/core/hooks';
