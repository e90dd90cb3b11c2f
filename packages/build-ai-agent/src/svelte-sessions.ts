// The svelte thread list (`@lousho/svelte/sessions`): a subpath of its own, so a page without a thread list loads none of it.
export * from '@lousho/svelte/sessions';
