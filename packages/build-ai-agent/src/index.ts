export * from '@lousho/core';
