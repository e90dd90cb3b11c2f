export * from '@lousho/core';
export * from '@lousho/integrations';
