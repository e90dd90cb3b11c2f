import type { Handle } from '@sveltejs/kit';

/** Headers for every answer (the Content-Security-Policy comes from svelte.config.js). */
export const handle: Handle = async ({ event, resolve }) => {
  const response = await resolve(event);
  response.headers.set('x-content-type-options', 'nosniff');
  response.headers.set('referrer-policy', 'no-referrer');
  return response;
};
