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

  it('from the SvelteKit demo: back to the demo server on the port beside it; IPv6 hosts in brackets', () => {
    expect(demoLinks('sveltekit', { protocol: 'http:', hostname: 'localhost', port: '3001' }).map((l) => l.href)).toEqual([
      'http://localhost:3000/',
      'http://localhost:3000/vue/',
      'http://localhost:3001/',
    ]);
    expect(demoLinks('react', { protocol: 'http:', hostname: '::1', port: '3000' })[0]!.href).toBe('http://[::1]:3000/');
  });
});

describe('demoLinks with PORT set', () => {
  it('PORT=3300 for the demo server: its pages link to the SvelteKit demo at 3301, where its banner says to start it', () => {
    expect(demoLinks('react', { protocol: 'http:', hostname: '127.0.0.1', port: '3300' }).map((l) => l.href)).toEqual([
      'http://127.0.0.1:3300/',
      'http://127.0.0.1:3300/vue/',
      'http://127.0.0.1:3301/',
    ]);
  });

  it('PORT=3301 for the SvelteKit demo: it links back to the demo server at 3300', () => {
    expect(demoLinks('sveltekit', { protocol: 'http:', hostname: '127.0.0.1', port: '3301' }).map((l) => l.href)).toEqual([
      'http://127.0.0.1:3300/',
      'http://127.0.0.1:3300/vue/',
      'http://127.0.0.1:3301/',
    ]);
  });

  it("a page on its scheme's default port (behind a proxy) links to the default ports", () => {
    expect(demoLinks('vue', { protocol: 'https:', hostname: 'demo.example', port: '' }).map((l) => l.href)).toEqual([
      'https://demo.example/',
      'https://demo.example/vue/',
      'https://demo.example:3001/',
    ]);
  });
});

describe('createInPageDemoAgent', () => {
  it('without IndexedDB (a server, storage blocked) keeps the chat in memory and says so', async () => {
    const { agent, kept } = createInPageDemoAgent({ toolDelayScale: 0 });
    expect(kept).toBe(false);
    expect((await agent.send('echo hi')).text).toBe('hi');
  });
});
