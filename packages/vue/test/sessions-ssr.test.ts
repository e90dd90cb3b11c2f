import { describe, expect, it, vi } from 'vitest';
import { createSSRApp, defineComponent, h } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { useLoushoAgent } from '../src/index.js';
import { useLoushoSessions } from '../src/sessions/index.js';

describe('useLoushoSessions on the server', () => {
  it('renders an empty, idle list without fetching anything', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const source = { url: 'http://example.test/api/agent', fetch: fetchSpy };
    const Page = defineComponent({
      setup() {
        const chat = useLoushoAgent(source);
        const threads = useLoushoSessions(source, chat);
        return () => h('nav', `${threads.status.value}|${threads.sessions.value.length}|${threads.error.value === null}`);
      },
    });
    expect(await renderToString(createSSRApp(Page))).toBe('<nav>idle|0|true</nav>');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
