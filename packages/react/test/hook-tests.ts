import { afterEach, describe, expect, it, vi } from 'vitest';
import { createElement, memo, Profiler, StrictMode, useEffect, type ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createAgent, type LLMProvider, type StreamChunk } from '@lousho/core';
import type { SessionIdStorage, UIMessage } from '@lousho/client';
import { eventually, gate, scriptedAgent, serveAgent, settle, slowTool, lastText, toolParts, type AgentServer } from '@lousho/conformance';
import { useLoushoAgent, type LoushoAgentSource, type UseLoushoAgentOptions, type UseLoushoAgentResult } from '../src/index.js';
import { mount, renderHook, type Mounted } from './support/harness.js';

/**
 * The hook's own tests (what the conformance suite cannot see: server rendering, StrictMode's
 * double mount, callbacks across renders, switching sessions, rendering cost). Written once and
 * run by hook.test.ts on React 19 and hook.react18.test.ts on React 18, each test under
 * StrictMode and without it.
 */
export function hookTests(reactName: string): void {
  const servers: AgentServer[] = [];
  const views: { unmount(): void }[] = [];
  afterEach(async () => {
    for (const view of views.splice(0)) view.unmount();
    for (const server of servers.splice(0)) await server.close();
  });

  const serve = async (agent: Parameters<typeof serveAgent>[0]): Promise<AgentServer> => {
    const server = await serveAgent(agent);
    servers.push(server);
    return server;
  };
  const requestsSince = (server: AgentServer, from: number): string[] => server.requests.slice(from).map((r) => `${r.method} ${r.path}`);

  const textOf = (message: UIMessage): string => message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');

  /** A Storage-like map (what `sessionStorage` would be in a browser). */
  function memoryStorage(initial: Record<string, string> = {}): SessionIdStorage & { data: Map<string, string> } {
    const data = new Map(Object.entries(initial));
    return { data, getItem: (key) => data.get(key) ?? null, setItem: (key, value) => void data.set(key, value), removeItem: (key) => void data.delete(key) };
  }

  /** A model that streams `count` one-character deltas, each in its own macrotask (as a network would). */
  function burstModel(count: number): LLMProvider {
    const tick = (): Promise<void> => new Promise((resolve) => (typeof setImmediate === 'function' ? setImmediate(resolve) : setTimeout(resolve, 0)));
    return {
      name: 'burst',
      async *stream(): AsyncGenerator<StreamChunk> {
        for (let i = 0; i < count; i++) {
          yield { type: 'text-delta', text: 'x' };
          await tick();
        }
        yield { type: 'finish', finishReason: 'stop' };
      },
    };
  }

  for (const strict of [false, true]) {
    describe(`useLoushoAgent on ${reactName}${strict ? ' (StrictMode)' : ''}`, () => {
      const wrap = (node: ReactNode): ReactNode => (strict ? createElement(StrictMode, null, node) : node);
      const render = <P>(hook: (props: P) => UseLoushoAgentResult, props: P) => {
        const view = renderHook(hook, props, { strict });
        views.push(view);
        return view;
      };
      const mountNode = (node: ReactNode): Mounted => {
        const view = mount(node, { strict });
        views.push(view);
        return view;
      };

      it('renders the initial state on the server without fetching or touching the agent', async () => {
        const fetchSpy = vi.fn<typeof fetch>();
        const url = 'http://example.test/api/agent';
        const storage = memoryStorage({ [`lousho:session:${url}`]: 'sess_saved' });
        const { agent, model } = scriptedAgent([['never']]);
        const get = vi.spyOn(agent.sessions, 'get');
        const stream = vi.spyOn(agent, 'stream');
        function View({ source }: { source: LoushoAgentSource }) {
          const chat = useLoushoAgent(source);
          return createElement('p', null, `${chat.status}|${chat.messages.length}|${chat.sessionId ?? 'none'}`);
        }
        expect(renderToString(wrap(createElement(View, { source: { url, fetch: fetchSpy, storage } })))).toContain('idle|0|sess_saved');
        expect(renderToString(wrap(createElement(View, { source: { agent, sessionId: 'sess_1' } })))).toContain('idle|0|sess_1');
        await settle(5);
        expect(fetchSpy).not.toHaveBeenCalled();
        expect(get).not.toHaveBeenCalled();
        expect(stream).not.toHaveBeenCalled();
        expect(model.calls).toEqual([]);
      });

      it('a mount reads the session once, and a send from a mount effect starts one run', async () => {
        const { agent, model } = scriptedAgent([['Hello.'], ['From the effect.']]);
        const server = await serve(agent);
        const first = render((source: LoushoAgentSource) => useLoushoAgent(source), { url: server.url });
        expect(await first.result.current.send('Hi')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(first.result.current.messages).toHaveLength(2));
        const sessionId = first.result.current.sessionId!;
        first.unmount();
        await settle();
        const from = server.requests.length;

        const errors: string[] = [];
        let chat: UseLoushoAgentResult | undefined;
        function SendOnMount() {
          chat = useLoushoAgent({ url: server.url, sessionId }, { onError: (error) => errors.push(error.code) });
          const send = chat.send;
          useEffect(() => {
            void send('from an effect');
          }, [send]);
          return null;
        }
        mountNode(createElement(SendOnMount));
        await eventually(() => expect(lastText(chat!)).toBe('From the effect.'));
        await settle(5);
        const id = encodeURIComponent(sessionId);
        expect(requestsSince(server, from)).toEqual([`GET /sessions/${id}`, `POST /sessions/${id}/messages`]);
        expect(model.calls).toHaveLength(2);
        expect(chat!.messages).toHaveLength(4);
        // StrictMode runs the effect twice: the second send is never sent (one POST, one run above); it may
        // be reported as refused (a turn is running). Nothing else may reach onError.
        expect(errors.filter((code) => code !== 'LOUSHO_SESSION_BUSY')).toEqual([]);
        if (!strict) expect(errors).toEqual([]);
      });

      it('calls the latest callbacks, headers and fetch, without making a new client', async () => {
        const { agent } = scriptedAgent([['One.'], ['Two.']]);
        const server = await serve(agent);
        const seen: string[] = [];
        const fetchAs =
          (name: string): typeof fetch =>
          (input, init) => {
            seen.push(`${name} x-version=${new Headers(init?.headers).get('x-version')}`);
            return fetch(input, init);
          };
        const calls: string[] = [];
        const options = (version: string): UseLoushoAgentOptions => ({
          onEvent: (event) => void (event.type === 'run.start' && calls.push(`event ${version}`)),
          onFinish: (info) => void calls.push(`finish ${version} ${info.finishReason}`),
          onError: (error) => void calls.push(`error ${version} ${error.code}`),
        });
        const view = render(
          ({ version, fetchFn }: { version: string; fetchFn: typeof fetch }) => useLoushoAgent({ url: server.url, headers: { 'x-version': version }, fetch: fetchFn }, options(version)),
          { version: '1', fetchFn: fetchAs('first fetch') },
        );
        await view.result.current.send('one');
        const sessionId = view.result.current.sessionId;
        view.rerender({ version: '2', fetchFn: fetchAs('second fetch') });
        await view.result.current.send('two');
        await view.result.current.approve();
        expect(calls).toEqual(['event 1', 'finish 1 stop', 'event 2', 'finish 2 stop', 'error 2 LOUSHO_APPROVAL_NOT_FOUND']);
        expect(seen).toEqual(['first fetch x-version=1', 'second fetch x-version=2']);
        await eventually(() => expect(view.result.current.messages).toHaveLength(4));
        expect(view.result.current.sessionId).toBe(sessionId);
      });

      it('actions keep their identity across renders of one session', async () => {
        const { agent } = scriptedAgent([['a b c']]);
        const view = render(() => useLoushoAgent({ agent }, { throttleMs: 0 }), undefined);
        const { send, stop, approve, reject, answer, reset } = view.result.current;
        await send('go');
        await eventually(() => expect(lastText(view.result.current)).toBe('a b c'));
        expect(view.result.current).toMatchObject({ send, stop, approve, reject, answer, reset });
      });

      it('a new url switches sessions cleanly: the old client is destroyed, its run goes on unseen', async () => {
        const { tool, started, release } = slowTool();
        const a = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['A done.']], { tools: [tool] });
        const b = scriptedAgent([['From B.']]);
        const serverA = await serve(a.agent);
        const serverB = await serve(b.agent);
        const view = render((source: LoushoAgentSource) => useLoushoAgent(source), { url: serverA.url });
        const sending = view.result.current.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(view.result.current)).toEqual([expect.objectContaining({ state: 'running' })]));
        const sessionA = view.result.current.sessionId!;
        const fromA = serverA.requests.length;

        view.rerender({ url: serverB.url });
        await eventually(() => expect(view.result.current).toMatchObject({ status: 'idle', messages: [], sessionId: undefined }));
        expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
        release.open();
        await eventually(() => expect(a.agent.sessions.get(sessionA)!.status).toBe('idle'));
        await settle(5);
        expect(view.result.current.messages).toEqual([]);
        expect(requestsSince(serverA, fromA)).toEqual([]);

        expect(await view.result.current.send('hello B')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(lastText(view.result.current)).toBe('From B.'));
        expect(requestsSince(serverB, 0)).toEqual([`POST /sessions/${encodeURIComponent(view.result.current.sessionId!)}/messages`]);
      });

      it('passing back the session id the client made keeps the client and its stream', async () => {
        const { tool, started, release } = slowTool();
        const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['Done.']], { tools: [tool] });
        const server = await serve(agent);
        // An app that puts the id of the conversation in its route once the first send made it.
        const view = render((sessionId: string | undefined) => useLoushoAgent({ url: server.url, ...(sessionId && { sessionId }) }), undefined as string | undefined);
        const sending = view.result.current.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(view.result.current)).toEqual([expect.objectContaining({ state: 'running' })]));
        const sessionId = view.result.current.sessionId!;
        const from = server.requests.length;
        const { send } = view.result.current;
        view.rerender(sessionId);
        expect(view.result.current.send).toBe(send);
        release.open();
        expect(await sending).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(lastText(view.result.current)).toBe('Done.'));
        expect(requestsSince(server, from)).toEqual([]);
        // Another id is another session.
        view.rerender('sess_other');
        await eventually(() => expect(view.result.current).toMatchObject({ sessionId: 'sess_other', messages: [] }));
        expect(view.result.current.send).not.toBe(send);
      });

      it('unmounting mid-run leaves the run going; a remount remembered in storage picks it up', async () => {
        const { tool, started, release } = slowTool();
        const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['Done after the reload.']], { tools: [tool] });
        const server = await serve(agent);
        const storage = memoryStorage();
        const first = render(() => useLoushoAgent({ url: server.url, storage }), undefined);
        const sending = first.result.current.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(first.result.current)).toEqual([expect.objectContaining({ state: 'running' })]));
        const sessionId = first.result.current.sessionId!;
        expect(storage.data.get(`lousho:session:${server.url}`)).toBe(sessionId);
        first.unmount();
        expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DETACHED' } });
        expect(agent.sessions.get(sessionId)!.status).toBe('running');

        const second = render(() => useLoushoAgent({ url: server.url, storage }), undefined);
        await eventually(() => expect(toolParts(second.result.current)).toEqual([expect.objectContaining({ state: 'running' })]));
        expect(second.result.current.sessionId).toBe(sessionId);
        release.open();
        await eventually(() => expect(second.result.current).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        expect(lastText(second.result.current)).toBe('Done after the reload.');
        expect(agent.sessions.get(sessionId)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
      });

      it('while a reply streams, memoized rows of earlier messages do not re-render', async () => {
        const hold = gate();
        const { agent } = scriptedAgent([['First ', 'answer.'], ['Sec', 'ond', { wait: hold }, ' ans', 'wer', '.']]);
        const renders = new Map<string, number>();
        const Row = memo(function Row({ message }: { message: UIMessage }) {
          renders.set(message.id, (renders.get(message.id) ?? 0) + 1);
          return createElement('li', null, textOf(message));
        });
        let chat!: UseLoushoAgentResult;
        function Chat() {
          chat = useLoushoAgent({ agent }, { throttleMs: 0 });
          return createElement(
            'ul',
            null,
            chat.messages.map((message) => createElement(Row, { key: message.id, message })),
          );
        }
        const view = mountNode(createElement(Chat));
        await chat.send('one');
        await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.'));
        const [question, answer] = chat.messages.map((m) => m.id) as [string, string];
        const settled = { question: renders.get(question), answer: renders.get(answer) };

        const sending = chat.send('two');
        await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.twoSecond'));
        expect({ question: renders.get(question), answer: renders.get(answer) }).toEqual(settled);
        const streamingId = chat.messages[3]!.id;
        const whileHeld = renders.get(streamingId)!;
        hold.open();
        await sending;
        await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.twoSecond answer.'));
        expect({ question: renders.get(question), answer: renders.get(answer) }).toEqual(settled);
        // The streaming row did follow the deltas.
        expect(renders.get(streamingId)!).toBeGreaterThan(whileHeld);
      });

      const commitsForBurst = async (options: UseLoushoAgentOptions): Promise<{ commits: number; elapsedMs: number }> => {
        const agent = createAgent({ provider: burstModel(1000) });
        let commits = 0;
        let chat!: UseLoushoAgentResult;
        function Chat() {
          chat = useLoushoAgent({ agent }, options);
          return createElement('p', null, lastText(chat).length);
        }
        const view = mountNode(createElement(Profiler, { id: 'chat', onRender: () => void commits++ }, createElement(Chat)));
        await settle();
        const before = commits;
        const startedAt = performance.now();
        expect(await chat.send('go')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(view.container.textContent).toBe('1000'));
        return { commits: commits - before, elapsedMs: performance.now() - startedAt };
      };

      it('with the default throttle, a burst of 1,000 deltas makes a bounded number of commits', async () => {
        const { commits, elapsedMs } = await commitsForBurst({});
        // At most one notification per 50 ms (the default) while streaming, plus the first and the end.
        expect(commits).toBeLessThanOrEqual(Math.ceil(elapsedMs / 50) + 10);
      });

      it('with throttleMs: 0, every delta commits (the throttle is what bounds the burst)', async () => {
        const { commits } = await commitsForBurst({ throttleMs: 0 });
        expect(commits).toBeGreaterThanOrEqual(1000);
      });
    });
  }
}
