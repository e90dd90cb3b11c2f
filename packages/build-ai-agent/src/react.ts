export * from '@lousho/react';
