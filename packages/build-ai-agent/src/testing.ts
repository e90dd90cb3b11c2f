export * from '@lousho/core/testing';
