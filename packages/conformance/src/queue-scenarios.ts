import type { AgentUIState, UIMessage } from '@lousho/core';
import type { BindingState, ExpectLike, MountedBinding } from './driver.js';
import { eventually, settle } from './eventually.js';
import { slowTool, type ScriptItem, type ScriptedAgentOptions, type ScriptedModel } from './fixtures.js';

/** What the queue scenarios use of a scenario's world (suite.ts). */
export interface QueueWorld {
  readonly transport: 'in-process' | 'http';
  readonly model: ScriptedModel;
  setup(steps: ScriptItem[][], extra?: ScriptedAgentOptions): Promise<void>;
  mount(options?: object, sessionId?: string): Promise<MountedBinding>;
  unmount(binding: MountedBinding): Promise<void>;
  runsStarted(sessionId: string): number;
  fromLog(sessionId: string): AgentUIState;
  requests(from?: number): string[];
  requestCount(): number;
}

type Scenario = (title: string, body: (w: QueueWorld) => Promise<void>) => void;

const textOf = (parts: UIMessage['parts']): string => parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
const transcript = (state: Pick<BindingState, 'messages'>): string[] => state.messages.map((m) => `${m.role}: ${textOf(m.parts)}`);
const pending = (state: Pick<BindingState, 'queued'>): string[] => (state.queued ?? []).map((q) => `${q.mode}: ${textOf(q.parts)}`);
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));
/** What a page shows, as plain JSON (`queued` as a list, also before any message waited). */
const shown = (state: BindingState | AgentUIState): unknown =>
  plain({ messages: state.messages, status: state.status, error: state.error, finishReason: state.finishReason, queued: state.queued ?? [] });

/** The session id the binding shows (a framework shows it once it has rendered). */
const sessionOf = (b: MountedBinding): Promise<string> =>
  eventually(() => {
    const id = b.state().sessionId;
    if (!id) throw new Error('No session id shown yet.');
    return id;
  });

/** Messages sent while a turn runs: queued (shown pending, removable, run next) and steering (taken in at the next step). */
export function queueScenarios(scenario: Scenario, expect: ExpectLike): void {
  scenario('a message sent while a turn runs waits as pending (on every page following the session), can be removed, and runs as the next turn', async (w) => {
    const { tool, started, release } = slowTool();
    await w.setup([[{ tool: 'slow', id: 's1' }], ['First done.'], ['Second done.']], { tools: [tool] });
    const b = await w.mount();
    const first = b.send('go');
    await started.promise;
    const sessionId = await sessionOf(b);
    expect(await b.send('then this')).toMatchObject({ ok: true });
    expect(await b.send('not this')).toMatchObject({ ok: true });
    await eventually(() => expect(pending(b.state())).toEqual(['queue: then this', 'queue: not this']));
    // Another page on the session shows them too.
    const other = await w.mount({}, sessionId);
    await eventually(() => expect(pending(other.state())).toEqual(['queue: then this', 'queue: not this']));

    const dropped = b.state().queued![1]!;
    expect(await b.unqueue(dropped.id)).toMatchObject({ ok: true });
    await eventually(() => expect(pending(b.state())).toEqual(['queue: then this']));
    await eventually(() => expect(pending(other.state())).toEqual(['queue: then this']));
    // Removing it again (or an unknown one): a stable code, and nothing changes.
    const before = b.state();
    expect(await b.unqueue(dropped.id)).toMatchObject({ ok: false, error: { code: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND' } });
    expect(await b.unqueue('q_unknown')).toMatchObject({ ok: false, error: { code: 'LOUSHO_QUEUED_MESSAGE_NOT_FOUND' } });
    await settle();
    expect(b.state()).toEqual(before);

    release.open();
    expect(await first).toMatchObject({ ok: true, finishReason: 'stop' });
    // The queued message is the next turn: the page follows it without being asked.
    await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', error: null }));
    await eventually(() => expect(transcript(b.state())).toEqual(['user: go', 'assistant: First done.', 'user: then this', 'assistant: Second done.']));
    expect(pending(b.state())).toEqual([]);
    await eventually(() => expect(shown(other.state())).toEqual(shown(b.state())));
    expect(w.model.calls).toHaveLength(3);
    expect(w.runsStarted(sessionId)).toBe(2);
    // The page shows what the session's log says, and so does a reload.
    expect(shown(b.state())).toEqual(shown(w.fromLog(sessionId)));
    const reloaded = await w.mount({}, sessionId);
    await eventually(() => expect(shown(reloaded.state())).toEqual(shown(b.state())));
  });

  scenario('steer: a message sent with mode steer joins the running turn at its next step, and the model sees it', async (w) => {
    const { tool, started, release } = slowTool();
    await w.setup([[{ tool: 'slow', id: 's1' }], ['Noted, both.']], { tools: [tool] });
    const b = await w.mount();
    const first = b.send('go');
    await started.promise;
    const sessionId = await sessionOf(b);
    expect(await b.send('also this', { mode: 'steer' })).toMatchObject({ ok: true });
    await eventually(() => expect(pending(b.state())).toEqual(['steer: also this']));
    release.open();
    expect(await first).toMatchObject({ ok: true, finishReason: 'stop' });
    await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    // One turn: the model's second call has the steering message after the tool's result.
    expect(w.model.calls).toHaveLength(2);
    expect(w.model.calls[1]!.at(-1)).toEqual({ role: 'user', content: 'also this' });
    expect(w.runsStarted(sessionId)).toBe(1);
    await eventually(() => expect(transcript(b.state())).toEqual(['user: go', 'assistant: ', 'user: also this', 'assistant: Noted, both.']));
    expect(pending(b.state())).toEqual([]);
    expect(shown(b.state())).toEqual(shown(w.fromLog(sessionId)));
    const reloaded = await w.mount({}, sessionId);
    await eventually(() => expect(shown(reloaded.state())).toEqual(shown(b.state())));
  });

  scenario('a reload while a message waits shows it pending, and the reloaded page follows the turn it becomes', async (w) => {
    const { tool, started, release } = slowTool();
    await w.setup([[{ tool: 'slow', id: 's1' }], ['First done.'], ['Second done.']], { tools: [tool] });
    const b = await w.mount();
    const first = b.send('go');
    await started.promise;
    const sessionId = await sessionOf(b);
    await b.send('later');
    await w.unmount(b);
    const reloaded = await w.mount({}, sessionId);
    await eventually(() => expect(pending(reloaded.state())).toEqual(['queue: later']));
    expect(reloaded.state().status).not.toBe('idle');
    release.open();
    await first;
    await eventually(() => expect(transcript(reloaded.state())).toEqual(['user: go', 'assistant: First done.', 'user: later', 'assistant: Second done.']));
    await eventually(() => expect(reloaded.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
    expect(shown(reloaded.state())).toEqual(shown(w.fromLog(sessionId)));
  });
}
