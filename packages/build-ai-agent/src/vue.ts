export * from '@lousho/vue';
