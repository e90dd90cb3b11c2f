import { describe, expect, it } from 'vitest';
import { STATIC_APPS } from '../src/apps.js';
import { startBanner } from '../src/banner.js';

describe('the start banner', () => {
  it('names every demo the server serves, and how to start the SvelteKit one', () => {
    const lines = startBanner('http://127.0.0.1:3000', 'the offline demo model', STATIC_APPS);
    expect(lines[0]).toBe('Lousho demo running at http://127.0.0.1:3000/ (model: the offline demo model)');
    expect(lines.slice(1)).toEqual([
      '  React demo      http://127.0.0.1:3000/',
      '  Vue demo        http://127.0.0.1:3000/vue/',
      '  SvelteKit demo  npm run demo:svelte (its own server, at http://127.0.0.1:3001/)',
    ]);
  });

  it('with PORT=3300, says to start the SvelteKit demo beside it, at 3301 (where the pages link)', () => {
    const lines = startBanner('http://127.0.0.1:3300', 'the offline demo model', STATIC_APPS);
    expect(lines.at(-1)).toBe('  SvelteKit demo  PORT=3301 npm run demo:svelte (its own server, at http://127.0.0.1:3301/)');
  });
});
