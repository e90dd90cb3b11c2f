export * from '@lousho/core/node';
