// The framework-neutral thread list (`@lousho/client/sessions`): a subpath of its own, so a page without a thread list loads none of it.
export * from '@lousho/client/sessions';
