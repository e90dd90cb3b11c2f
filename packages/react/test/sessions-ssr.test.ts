import { describe, expect, it, vi } from 'vitest';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { useLoushoAgent } from '../src/index.js';
import { useLoushoSessions } from '../src/sessions/index.js';

describe('useLoushoSessions on the server', () => {
  it('renders an empty, idle list without fetching anything', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const source = { url: 'http://example.test/api/agent', fetch: fetchSpy };
    function Page() {
      const chat = useLoushoAgent(source);
      const threads = useLoushoSessions(source, chat);
      return createElement('nav', null, `${threads.status}|${threads.sessions.length}|${threads.error === null}`);
    }
    expect(renderToString(createElement(Page))).toBe('<nav>idle|0|true</nav>');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
