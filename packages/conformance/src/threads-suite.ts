import type { ClientAgent } from '@lousho/client';
import { reduceAgentEvents, type AgentUIState } from '@lousho/core';
import type { BindingDriver, BindingOptions, ConformanceSource, MountedBinding, MountedThreads, SuiteApi } from './driver.js';
import { eventually, settle } from './eventually.js';
import { gate, scriptedAgent, type ScriptItem } from './fixtures.js';
import { serveAgent, type AgentServer } from './server.js';
import type { TransportName } from './driver.js';

/** The texts of a state's messages, in order (a user's, then each text part of a reply). */
const texts = (state: { messages: AgentUIState['messages'] }): string[] => state.messages.flatMap((m) => m.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])));
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** One scenario's agent (served over HTTP for the `http` transport) and the chat-with-sidebar mounted on it. */
class ThreadsWorld {
  agent!: ClientAgent;
  private server: AgentServer | undefined;
  private readonly mounted: MountedBinding[] = [];

  constructor(
    readonly transport: TransportName,
    private readonly driver: BindingDriver,
  ) {}

  async setup(steps: ScriptItem[][]): Promise<void> {
    this.agent = scriptedAgent(steps).agent;
    if (this.transport === 'http') this.server = await serveAgent(this.agent);
  }

  source(): ConformanceSource {
    return this.server ? { url: this.server.url } : { agent: this.agent };
  }

  async mount(options: BindingOptions = {}): Promise<MountedBinding & { threads: MountedThreads }> {
    const mounted = await this.driver.mountWithThreads!(this.source(), { throttleMs: 0, ...options });
    this.mounted.push(mounted);
    return mounted;
  }

  /** The state the session's own log reduces to: what a binding that saw every event once must show. */
  fromLog(sessionId: string): AgentUIState {
    let state: AgentUIState | undefined;
    for (const event of this.agent.sessions.eventsAfter(sessionId, 0)) state = reduceAgentEvents(state, event);
    return state!;
  }

  async close(): Promise<void> {
    for (const binding of this.mounted.splice(0)) await binding.unmount();
    await this.server?.close();
  }
}

/**
 * The thread scenarios (issue 47: switch, new, list, rename, delete), for a binding whose driver
 * mounts a chat with its thread list (`mountWithThreads`), over both transports.
 */
export function runThreadsConformance(name: string, driver: BindingDriver, api: SuiteApi, options: { transports?: readonly TransportName[]; timeoutMs?: number } = {}): void {
  if (!driver.mountWithThreads) return;
  const { describe, it, expect } = api;
  for (const transport of options.transports ?? (['in-process', 'http'] as const)) {
    describe(`${name}: threads over ${transport}`, () => {
      const scenario = (title: string, body: (w: ThreadsWorld) => Promise<void>): void =>
        it(
          title,
          async () => {
            const world = new ThreadsWorld(transport, driver);
            try {
              await body(world);
              await settle();
            } finally {
              await world.close();
            }
          },
          options.timeoutMs ?? 30_000,
        );

      scenario('a new thread, the list newest first with titles, statuses and usage, and switching between threads', async (w) => {
        await w.setup([['Reply A'], ['Reply B']]);
        const b = await w.mount();
        expect(await b.send('Thread A')).toMatchObject({ ok: true });
        const a = b.state().sessionId!;
        b.threads.openNew();
        await eventually(() => expect(b.state()).toMatchObject({ sessionId: undefined, messages: [] }));
        expect(await b.send('Thread B')).toMatchObject({ ok: true });
        const bId = b.state().sessionId!;
        expect(bId).not.toBe(a);
        const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
        await eventually(() =>
          expect(b.threads.state()).toMatchObject({
            status: 'ready',
            error: null,
            hasMore: false,
            current: bId,
            sessions: [
              { id: bId, title: 'Thread B', status: 'idle', usage },
              { id: a, title: 'Thread A', status: 'idle', usage },
            ],
          }),
        );
        await b.threads.open(a);
        await eventually(() => {
          expect(b.state().sessionId).toBe(a);
          expect(texts(b.state())).toEqual(['Thread A', 'Reply A']);
          expect(b.threads.state().current).toBe(a);
        });
        await b.threads.open(bId);
        await eventually(() => expect(texts(b.state())).toEqual(['Thread B', 'Reply B']));
      });

      scenario('switching away from a running thread and back: it ran on, and is followed live with nothing lost or doubled', async (w) => {
        const hold = gate();
        await w.setup([['Working', { wait: hold }, ' on it, done.'], ['Other reply']]);
        const b = await w.mount();
        void b.send('Long task');
        await eventually(() => expect(texts(b.state())).toEqual(['Long task', 'Working']));
        const running = b.state().sessionId!;
        b.threads.openNew();
        expect(await b.send('Meanwhile')).toMatchObject({ ok: true });
        await eventually(() => expect(b.threads.state().sessions.find((s) => s.id === running)).toMatchObject({ title: 'Long task', status: 'running' }));

        await b.threads.open(running);
        await eventually(() => {
          expect(b.state()).toMatchObject({ sessionId: running, status: 'streaming' });
          expect(texts(b.state())).toEqual(['Long task', 'Working']);
        });
        hold.open();
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        expect(texts(b.state())).toEqual(['Long task', 'Working on it, done.']);
        expect(plain(b.state().messages)).toEqual(plain(w.fromLog(running).messages));
        await eventually(() => expect(b.threads.state().sessions[0]).toMatchObject({ id: running, status: 'idle' }));
      });

      scenario('rename and delete; an unknown thread and a bad title are errors with codes that change nothing', async (w) => {
        await w.setup([['one'], ['two']]);
        const b = await w.mount();
        await b.send('Keep me');
        const keep = b.state().sessionId!;
        await new Promise((resolve) => setTimeout(resolve, 3));
        b.threads.openNew();
        await b.send('Drop me');
        const drop = b.state().sessionId!;
        await eventually(() => expect(b.threads.state().sessions.map((s) => s.id)).toEqual([drop, keep]));

        expect(await b.threads.rename(keep, '  Trip to Lisbon ')).toEqual({ ok: true });
        await eventually(() => expect(b.threads.state().sessions[1]).toMatchObject({ id: keep, title: 'Trip to Lisbon' }));
        expect(await b.threads.rename(keep, '   ')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_TITLE_INVALID' } });
        await eventually(() => expect(b.threads.state().error).toMatchObject({ code: 'LOUSHO_SESSION_TITLE_INVALID' }));
        expect(await b.threads.rename('no-such-thread', 'x')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
        expect(await b.threads.remove('no-such-thread')).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_FOUND' } });
        const stored = await w.agent.sessions.list!();
        expect(stored.sessions.map((s) => [s.id, s.title])).toEqual([
          [drop, 'Drop me'],
          [keep, 'Trip to Lisbon'],
        ]);

        // Deleting the thread the chat shows starts a new one there.
        expect(await b.threads.remove(drop)).toEqual({ ok: true });
        await eventually(() => {
          expect(b.state()).toMatchObject({ sessionId: undefined, messages: [] });
          expect(b.threads.state()).toMatchObject({ current: undefined, error: null, sessions: [{ id: keep }] });
        });
        expect((await w.agent.sessions.list!()).sessions.map((s) => s.id)).toEqual([keep]);
        expect(w.agent.sessions.eventsAfter(drop, 0)).toEqual([]);
      });
    });
  }
}
