// The vue thread list (`@lousho/vue/sessions`): a subpath of its own, so a page without a thread list loads none of it.
export * from '@lousho/vue/sessions';
