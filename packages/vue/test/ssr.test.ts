import { afterEach, describe, expect, it, vi } from 'vitest';
import { createSSRApp, defineComponent, h, ref, type PropType } from 'vue';
import { renderToString } from 'vue/server-renderer';
import { eventually, scriptedAgent, settle } from '@lousho/conformance';
import { useLoushoAgent, type LoushoAgentSource } from '../src/index.js';
import { inScope, memoryStorage, serve } from './support/helpers.js';

const View = defineComponent({
  props: { source: { type: [Object, Function] as PropType<LoushoAgentSource | (() => LoushoAgentSource)>, required: true } },
  setup(props) {
    const chat = useLoushoAgent(props.source);
    return () => h('p', `${chat.status.value}|${chat.messages.value.length}|${chat.sessionId.value ?? 'none'}`);
  },
});

const containers: HTMLElement[] = [];
afterEach(() => {
  for (const container of containers.splice(0)) container.remove();
});

describe('useLoushoAgent on the server', () => {
  it('renders the initial state without fetching or touching the agent', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    const url = 'http://example.test/api/agent';
    const storage = memoryStorage({ [`lousho:session:${url}`]: 'sess_saved' });
    const { agent, model } = scriptedAgent([['never']]);
    const get = vi.spyOn(agent.sessions, 'get');
    const stream = vi.spyOn(agent, 'stream');
    const sessionId = ref('sess_1');

    expect(await renderToString(createSSRApp(View, { source: { url, fetch: fetchSpy, storage } }))).toBe('<p>idle|0|sess_saved</p>');
    expect(await renderToString(createSSRApp(View, { source: { agent, sessionId: 'sess_1' } }))).toBe('<p>idle|0|sess_1</p>');
    // Reactive sources too: read once, never watched.
    expect(await renderToString(createSSRApp(View, { source: () => ({ agent, sessionId }) }))).toBe('<p>idle|0|sess_1</p>');
    sessionId.value = 'sess_2';
    await settle(5);
    expect(fetchSpy).not.toHaveBeenCalled();
    expect(get).not.toHaveBeenCalled();
    expect(stream).not.toHaveBeenCalled();
    expect(model.calls).toEqual([]);
  });

  it('hydrating the server HTML on the client restores the session once and shows it', async () => {
    const { agent } = scriptedAgent([['Hello from before.']]);
    const server = await serve(agent);
    const storage = memoryStorage();
    // A first visit made the session (and remembered it in storage).
    const visit = inScope(() => useLoushoAgent({ url: server.url, storage }));
    expect(await visit.result.send('Hi')).toMatchObject({ ok: true, finishReason: 'stop' });
    const sessionId = visit.result.sessionId.value!;
    visit.scope.stop();
    const before = server.requests.length;

    const html = await renderToString(createSSRApp(View, { source: { url: server.url, storage } }));
    expect(html).toBe(`<p>idle|0|${sessionId}</p>`);
    expect(server.requests.length).toBe(before);

    const container = document.createElement('div');
    containers.push(container);
    container.innerHTML = html;
    document.body.append(container);
    const warn = vi.spyOn(console, 'warn');
    const app = createSSRApp(View, { source: { url: server.url, storage } });
    app.mount(container);
    await eventually(() => expect(container.textContent).toBe(`idle|2|${sessionId}`));
    expect(warn).not.toHaveBeenCalledWith(expect.stringContaining('Hydration'), expect.anything());
    warn.mockRestore();
    expect(server.requests.slice(before).map((r) => `${r.method} ${r.path}`)).toEqual([`GET /sessions/${sessionId}`]);
    app.unmount();
  });
});
