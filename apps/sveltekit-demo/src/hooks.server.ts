import type { Handle, ServerInit } from '@sveltejs/kit';
import { building } from '$app/environment';
import { provideMarkdownDom } from '$lib/server/markdown-dom';
import { coding } from '$lib/server/agent';
import { startTriggers } from '$lib/server/triggers';

/**
 * Once per server, before the first request: the Markdown renderer gets its DOM, the webhook
 * trigger starts and the banner says where the coding tools' commands run (never while building).
 */
export const init: ServerInit = async () => {
  provideMarkdownDom();
  if (building) return;
  await startTriggers();
  console.log(`  ${coding.note}`);
};

/** Headers for every answer (the Content-Security-Policy comes from svelte.config.js). */
export const handle: Handle = async ({ event, resolve }) => {
  const response = await resolve(event);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'no-referrer');
  return response;
};
