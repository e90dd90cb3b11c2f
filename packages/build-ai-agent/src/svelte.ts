export * from '@lousho/svelte';
