import { describe, expect, it } from 'vitest';
import { createInPageDemoAgent, demoLinks } from '../src/index.js';

describe('demoLinks', () => {
  it('from the demo server: React and Vue on the same origin, SvelteKit on its own port of the same host', () => {
    const links = demoLinks('vue', { protocol: 'http:', hostname: '127.0.0.1', port: '3000' });
    expect(links.map((l) => [l.label, l.href, l.current])).toEqual([
      ['React', 'http://127.0.0.1:3000/', false],
      ['Vue', 'http://127.0.0.1:3000/vue/', true],
      ['SvelteKit', 'http://127.0.0.1:3001/', false],
    ]);
    expect(links.find((l) => l.name === 'sveltekit')!.hint).toBe('npm run demo:svelte');
  });

  it('from the SvelteKit demo: back to the demo server on its default port; IPv6 hosts in brackets', () => {
    expect(demoLinks('sveltekit', { protocol: 'http:', hostname: 'localhost', port: '4000' }).map((l) => l.href)).toEqual([
      'http://localhost:3000/',
      'http://localhost:3000/vue/',
      'http://localhost:4000/',
    ]);
    expect(demoLinks('react', { protocol: 'http:', hostname: '::1', port: '3000' })[0]!.href).toBe('http://[::1]:3000/');
  });
});

describe('createInPageDemoAgent', () => {
  it('without IndexedDB (a server, storage blocked) keeps the chat in memory and says so', async () => {
    const { agent, kept } = createInPageDemoAgent({ toolDelayScale: 0 });
    expect(kept).toBe(false);
    expect((await agent.send('echo hi')).text).toBe('hi');
  });
});
