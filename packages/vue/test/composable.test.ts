import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render } from '@testing-library/vue';
import { defineComponent, h, isProxy, nextTick, onUpdated, reactive, ref, shallowRef, watch, type PropType } from 'vue';
import { createAgent } from '@lousho/core';
import type { UIMessage } from '@lousho/client';
import { eventually, gate, lastText, scriptedAgent, settle, slowTool, toolParts } from '@lousho/conformance';
import { useLoushoAgent, type LoushoAgentSource, type UseLoushoAgentOptions, type UseLoushoAgentResult } from '../src/index.js';
import { burstModel, inScope, memoryStorage, requestsSince, serve, textOf } from './support/helpers.js';

afterEach(() => cleanup());

/** The refs' values now, in the shape the conformance helpers read. */
const now = (chat: UseLoushoAgentResult) => ({
  messages: chat.messages.value,
  status: chat.status.value,
  pendingApproval: chat.pendingApproval.value,
  error: chat.error.value,
  finishReason: chat.finishReason.value,
  sessionId: chat.sessionId.value,
});

describe('useLoushoAgent: the refs', () => {
  it('are read-only: writing one warns and changes nothing', async () => {
    const { agent } = scriptedAgent([['Hi.']]);
    const { result: chat } = inScope(() => useLoushoAgent({ agent }));
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    (chat.status as { value: unknown }).value = 'error';
    (chat.messages as { value: unknown }).value = [];
    expect(chat.status.value).toBe('idle');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('readonly'), expect.anything());
    warn.mockRestore();
    await chat.send('hello');
    await eventually(() => expect(lastText(now(chat))).toBe('Hi.'));
  });

  it('each ref changes only when its field does: a streaming reply touches `messages`, not `status` on every token', async () => {
    const agent = createAgent({ provider: burstModel(50) });
    const { result: chat } = inScope(() => useLoushoAgent({ agent }, { throttleMs: 0 }));
    const statuses: string[] = [];
    let messageChanges = 0;
    inScope(() => {
      watch(chat.status, (status) => void statuses.push(status), { flush: 'sync' });
      watch(chat.messages, () => void messageChanges++, { flush: 'sync' });
    });
    expect(await chat.send('go')).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(lastText(now(chat))).toHaveLength(50));
    expect(statuses).toEqual(['submitted', 'streaming', 'idle']);
    expect(messageChanges).toBeGreaterThanOrEqual(50);
  });

  it('while a reply streams, earlier messages keep their identity and their row components do not re-render', async () => {
    const hold = gate();
    const { agent } = scriptedAgent([['First ', 'answer.'], ['Sec', 'ond', { wait: hold }, ' ans', 'wer', '.']]);
    const renders = new Map<string, number>();
    const Row = defineComponent({
      props: { message: { type: Object as PropType<UIMessage>, required: true } },
      setup(props) {
        return () => {
          renders.set(props.message.id, (renders.get(props.message.id) ?? 0) + 1);
          return h('li', textOf(props.message));
        };
      },
    });
    let chat!: UseLoushoAgentResult;
    const Chat = defineComponent({
      setup() {
        chat = useLoushoAgent({ agent }, { throttleMs: 0 });
        return () => h('ul', chat.messages.value.map((message) => h(Row, { key: message.id, message })));
      },
    });
    const view = render(Chat);
    await chat.send('one');
    await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.'));
    const [question, answer] = chat.messages.value;
    const settled = { question: renders.get(question!.id), answer: renders.get(answer!.id) };

    const sending = chat.send('two');
    await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.twoSecond'));
    expect(chat.messages.value[0]).toBe(question);
    expect(chat.messages.value[1]).toBe(answer);
    expect({ question: renders.get(question!.id), answer: renders.get(answer!.id) }).toEqual(settled);
    const streamingId = chat.messages.value[3]!.id;
    const whileHeld = renders.get(streamingId)!;
    hold.open();
    await sending;
    await eventually(() => expect(view.container.textContent).toBe('oneFirst answer.twoSecond answer.'));
    expect(chat.messages.value[0]).toBe(question);
    expect(chat.messages.value[1]).toBe(answer);
    expect({ question: renders.get(question!.id), answer: renders.get(answer!.id) }).toEqual(settled);
    // The streaming row did follow the deltas.
    expect(renders.get(streamingId)!).toBeGreaterThan(whileHeld);
  });

  const updatesForBurst = async (options: UseLoushoAgentOptions): Promise<{ updates: number; elapsedMs: number }> => {
    const agent = createAgent({ provider: burstModel(1000) });
    let updates = 0;
    let chat!: UseLoushoAgentResult;
    const Chat = defineComponent({
      setup() {
        chat = useLoushoAgent({ agent }, options);
        onUpdated(() => void updates++);
        return () => h('p', lastText(now(chat)).length);
      },
    });
    const view = render(Chat);
    await settle();
    const startedAt = performance.now();
    expect(await chat.send('go')).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(view.container.textContent).toBe('1000'));
    return { updates, elapsedMs: performance.now() - startedAt };
  };

  it('with the default throttle, a burst of 1,000 deltas makes a bounded number of renders', async () => {
    const { updates, elapsedMs } = await updatesForBurst({});
    // At most one notification per 50 ms (the default) while streaming, plus the first and the end.
    expect(updates).toBeLessThanOrEqual(Math.ceil(elapsedMs / 50) + 10);
    expect(updates).toBeLessThan(200);
  });

  it('with throttleMs: 0, every delta renders (the throttle is what bounds the burst)', async () => {
    const { updates } = await updatesForBurst({ throttleMs: 0 });
    expect(updates).toBeGreaterThanOrEqual(1000);
  });
});

describe('useLoushoAgent: actions and callbacks', () => {
  it('actions are plain functions, the same for the lifetime, and always act on the current session', async () => {
    const a = scriptedAgent([['From A.']]);
    const b = scriptedAgent([['From B.']]);
    // A deep ref, as apps often write it: the agent inside is read without its reactive proxy.
    const source = ref<LoushoAgentSource>({ agent: a.agent });
    const proxied: boolean[] = [];
    for (const agent of [a.agent, b.agent]) {
      const stream = agent.stream;
      agent.stream = function (this: unknown, ...args: Parameters<typeof stream>) {
        proxied.push(isProxy(this));
        return stream.apply(agent, args);
      } as typeof stream;
    }
    const { result: chat } = inScope(() => useLoushoAgent(source));
    const { send, stop, approve, reject, answer, reset } = chat;
    await send('hi A');
    await eventually(() => expect(lastText(now(chat))).toBe('From A.'));
    source.value = { agent: b.agent };
    await nextTick();
    expect(chat).toMatchObject({ send, stop, approve, reject, answer, reset });
    expect(chat.messages.value).toEqual([]);
    await send('hi B');
    await eventually(() => expect(lastText(now(chat))).toBe('From B.'));
    expect(a.model.calls).toHaveLength(1);
    expect(b.model.calls).toHaveLength(1);
    expect(proxied).toEqual([false, false]);
  });

  it('reads callbacks from the options object and headers and fetch from the source when they are used, without a new client', async () => {
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
    const callbacks = (version: string): UseLoushoAgentOptions => ({
      onEvent: (event) => void (event.type === 'run.start' && calls.push(`event ${version}`)),
      onFinish: (info) => void calls.push(`finish ${version} ${info.finishReason}`),
      onError: (error) => void calls.push(`error ${version} ${error.code}`),
    });
    const options = reactive<UseLoushoAgentOptions>(callbacks('1'));
    const version = ref('1');
    const fetchFn = shallowRef(fetchAs('first fetch'));
    const { result: chat } = inScope(() => useLoushoAgent(() => ({ url: server.url, headers: { 'x-version': version.value }, fetch: fetchFn.value }), options));
    await chat.send('one');
    const sessionId = chat.sessionId.value;
    Object.assign(options, callbacks('2'));
    version.value = '2';
    fetchFn.value = fetchAs('second fetch');
    await nextTick();
    await chat.send('two');
    await chat.approve();
    expect(calls).toEqual(['event 1', 'finish 1 stop', 'event 2', 'finish 2 stop', 'error 2 LOUSHO_APPROVAL_NOT_FOUND']);
    expect(seen).toEqual(['first fetch x-version=1', 'second fetch x-version=2']);
    await eventually(() => expect(chat.messages.value).toHaveLength(4));
    expect(chat.sessionId.value).toBe(sessionId);
  });
});

describe('useLoushoAgent: reactive sources', () => {
  it('a sessionId ref: passing back the id the client made keeps the client and its stream; another id switches', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['Done.']], { tools: [tool] });
    const server = await serve(agent);
    const routeId = ref<string | undefined>(undefined);
    // An app that puts the id of the conversation in its route once the first send made it.
    const { result: chat } = inScope(() => useLoushoAgent({ url: server.url, sessionId: routeId }));
    const sending = chat.send('go');
    await started.promise;
    await eventually(() => expect(toolParts(now(chat))).toEqual([expect.objectContaining({ state: 'running' })]));
    const sessionId = chat.sessionId.value!;
    const from = server.requests.length;
    routeId.value = sessionId;
    await nextTick();
    release.open();
    expect(await sending).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(lastText(now(chat))).toBe('Done.'));
    expect(requestsSince(server, from)).toEqual([]);

    // Another id is another session: read once, shown, and followed from then on.
    routeId.value = 'sess_other';
    await nextTick();
    expect(chat.sessionId.value).toBe('sess_other');
    expect(chat.messages.value).toEqual([]);
    await eventually(() => expect(requestsSince(server, from)).toEqual(['GET /sessions/sess_other']));
    routeId.value = sessionId;
    await eventually(() => expect(lastText(now(chat))).toBe('Done.'));
    expect(chat.sessionId.value).toBe(sessionId);
  });

  it('a url getter: a new url destroys the old client (its run goes on unseen) and talks to the new server', async () => {
    const { tool, started, release } = slowTool();
    const a = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['A done.']], { tools: [tool] });
    const b = scriptedAgent([['From B.']]);
    const serverA = await serve(a.agent);
    const serverB = await serve(b.agent);
    const url = ref(serverA.url);
    const { result: chat } = inScope(() => useLoushoAgent({ url: () => url.value }));
    const sending = chat.send('go');
    await started.promise;
    await eventually(() => expect(toolParts(now(chat))).toEqual([expect.objectContaining({ state: 'running' })]));
    const sessionA = chat.sessionId.value!;
    const fromA = serverA.requests.length;

    url.value = serverB.url;
    await nextTick();
    expect(now(chat)).toMatchObject({ status: 'idle', messages: [], sessionId: undefined });
    expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
    release.open();
    await eventually(() => expect(a.agent.sessions.get(sessionA)!.status).toBe('idle'));
    await settle(5);
    expect(chat.messages.value).toEqual([]);
    expect(requestsSince(serverA, fromA)).toEqual([]);

    expect(await chat.send('hello B')).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(lastText(now(chat))).toBe('From B.'));
    expect(requestsSince(serverB, 0)).toEqual([`POST /sessions/${encodeURIComponent(chat.sessionId.value!)}/messages`]);
  });

  it('changes within one tick switch once: only the last session is read', async () => {
    const { agent } = scriptedAgent([]);
    const server = await serve(agent);
    const id = ref('sess_1');
    const { result: chat } = inScope(() => useLoushoAgent({ url: server.url, sessionId: id }));
    await eventually(() => expect(requestsSince(server, 0)).toEqual(['GET /sessions/sess_1']));
    id.value = 'sess_2';
    id.value = 'sess_3';
    await nextTick();
    await settle(5);
    expect(requestsSince(server, 0)).toEqual(['GET /sessions/sess_1', 'GET /sessions/sess_3']);
    expect(chat.sessionId.value).toBe('sess_3');
  });
});

describe('useLoushoAgent: disposing the scope', () => {
  it('stopping the effect scope mid-run detaches: the run goes on, the session stays whole, and a new scope picks it up', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['Done after the reload.']], { tools: [tool] });
    const server = await serve(agent);
    const storage = memoryStorage();
    const first = inScope(() => useLoushoAgent({ url: server.url, storage }));
    const sending = first.result.send('go');
    await started.promise;
    await eventually(() => expect(toolParts(now(first.result))).toEqual([expect.objectContaining({ state: 'running' })]));
    const sessionId = first.result.sessionId.value!;
    expect(storage.data.get(`lousho:session:${server.url}`)).toBe(sessionId);
    first.scope.stop();
    expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
    expect(agent.sessions.get(sessionId)!.status).toBe('running');
    const from = server.requests.length;

    const second = inScope(() => useLoushoAgent({ url: server.url, storage }));
    await eventually(() => expect(toolParts(now(second.result))).toEqual([expect.objectContaining({ state: 'running' })]));
    expect(second.result.sessionId.value).toBe(sessionId);
    release.open();
    await eventually(() => expect(now(second.result)).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(lastText(now(second.result))).toBe('Done after the reload.');
    expect(agent.sessions.get(sessionId)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    // The first one follows nothing any more: it made no request after it was stopped.
    const id = encodeURIComponent(sessionId);
    expect(requestsSince(server, from)).toEqual([`GET /sessions/${id}`, `GET /sessions/${id}/events`]);
    expect(first.result.status.value).not.toBe('idle');
  });

  it('unmounting a component mid-run detaches the same way', async () => {
    const { tool, started, release } = slowTool();
    const { agent } = scriptedAgent([['Working.', { tool: 'slow', id: 's1' }], ['Done.']], { tools: [tool] });
    let chat!: UseLoushoAgentResult;
    const Chat = defineComponent({
      setup() {
        chat = useLoushoAgent({ agent });
        return () => h('p', chat.status.value);
      },
    });
    const view = render(Chat);
    const sending = chat.send('go');
    await started.promise;
    const sessionId = await eventually(() => chat.sessionId.value!);
    view.unmount();
    expect(await sending).toMatchObject({ ok: false, error: { code: 'LOUSHO_CLIENT_DESTROYED' } });
    release.open();
    await eventually(() => expect(agent.sessions.get(sessionId)!.status).toBe('idle'));
    expect(agent.sessions.get(sessionId)!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });
});
