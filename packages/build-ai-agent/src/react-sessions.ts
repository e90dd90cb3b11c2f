// The react thread list (`@lousho/react/sessions`): a subpath of its own, so a page without a thread list loads none of it.
export * from '@lousho/react/sessions';
