import type { ClientAgent } from '@lousho/client';
import { memoryStore, reduceAgentEvents, type AgentStreamEvent, type AgentUIState, type GuardrailContext, type UIFlowNodePart, type UIMessage, type UIToolPart } from '@lousho/core';
import { createCommandGuardrail } from '@lousho/workspace';
import type { BindingDriver, BindingOptions, BindingState, ConformanceSource, MountedBinding, SuiteApi, TransportName } from './driver.js';

export type { TransportName } from './driver.js';
import { attachmentScenarios } from './attachment-scenarios.js';
import { eventually, settle } from './eventually.js';
import { emailTool, gate, lookupFlow, timeZoneTool, lookupTool, pageTool, researcher, scriptedAgent, shellTool, slowTool, storeWithInterruptedTurn, triageFlow, waitTool, type ScriptItem, type ScriptedAgentOptions, type ScriptedModel } from './fixtures.js';
import { serveAgent, type AgentServer } from './server.js';
import { runThreadsConformance } from './threads-suite.js';
import { queueScenarios } from './queue-scenarios.js';


export interface ConformanceSuiteOptions {
  /** Run only these transports (default: both). */
  transports?: readonly TransportName[];
  /** Per-scenario timeout in ms (default 30,000). */
  timeoutMs?: number;
}

// ---- reading a state ----

export const toolParts = (state: Pick<BindingState, 'messages'>): UIToolPart[] =>
  state.messages.flatMap((message) => message.parts.filter((part): part is UIToolPart => part.type === 'tool'));

export const flowParts = (state: Pick<BindingState, 'messages'>): UIFlowNodePart[] =>
  state.messages.flatMap((message) => message.parts.filter((part): part is UIFlowNodePart => part.type === 'flow-node'));

const textOf = (message: UIMessage | undefined): string =>
  (message?.parts ?? []).map((part) => (part.type === 'text' ? part.text : '')).join('');

/** The last text part of the last message (an assistant message holds one text part per step). */
export const lastText = (state: Pick<BindingState, 'messages'>): string => {
  const part = [...(state.messages.at(-1)?.parts ?? [])].reverse().find((p) => p.type === 'text');
  return part?.type === 'text' ? part.text : '';
};

const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value ?? null));

/** The fields every binding shows, as plain JSON (to compare however the state was built). */
const shown = (state: BindingState | AgentUIState): unknown =>
  plain({
    messages: state.messages,
    status: state.status,
    pendingApproval: state.pendingApproval,
    error: state.error,
    usage: state.usage,
    finishReason: state.finishReason,
    guardrail: state.guardrail,
  });

// ---- one scenario's world: an agent, maybe its HTTP server, the bindings mounted on it ----

class World {
  agent!: ClientAgent;
  model!: ScriptedModel;
  private server: AgentServer | undefined;
  private readonly mounted: MountedBinding[] = [];
  private extra: ScriptedAgentOptions = {};
  /** Agents of processes that "died" (`restart`), and the session each was running. */
  private readonly retired: { agent: ClientAgent; sessionId: string }[] = [];

  constructor(
    readonly transport: TransportName,
    private readonly driver: BindingDriver,
  ) {}

  async setup(steps: ScriptItem[][], extra: ScriptedAgentOptions = {}): Promise<void> {
    const { agent, model } = scriptedAgent(steps, extra);
    this.agent = agent;
    this.model = model;
    this.extra = extra;
    if (this.transport === 'http') this.server = await serveAgent(agent);
  }

  /** A world around any agent-shaped source (e.g. a flow served with `createFlowAgent()`). */
  async setupAgent(agent: ClientAgent): Promise<void> {
    this.agent = agent;
    if (this.transport === 'http') this.server = await serveAgent(agent);
  }

  /**
   * Plays the death of the server's process in the middle of `sessionId`'s turn and the start of a
   * new one on the same store (setup's `store`), which resumes the turn with `agent.resume()`, as a
   * server does on startup: the HTTP server's connections are cut and it answers with the new agent.
   * The old agent is fenced off by the resume (it took the session's lease over) and never writes
   * again. Resolves once the resumed leg has ended.
   */
  async restart(sessionId: string, steps: ScriptItem[][]): Promise<void> {
    this.retired.push({ agent: this.agent, sessionId });
    const { agent, model } = scriptedAgent(steps, this.extra);
    this.agent = agent;
    this.model = model;
    const resumed = (agent as unknown as { resume(id: string): Promise<unknown> }).resume(sessionId);
    this.server?.restart(agent);
    await resumed;
  }

  source(sessionId?: string): ConformanceSource {
    const session = sessionId !== undefined ? { sessionId } : {};
    return this.server ? { url: this.server.url, ...session } : { agent: this.agent, ...session };
  }

  async mount(options: BindingOptions = {}, sessionId?: string): Promise<MountedBinding> {
    const binding = await this.driver.mount(this.source(sessionId), options);
    this.mounted.push(binding);
    return binding;
  }

  async unmount(binding: MountedBinding): Promise<void> {
    this.mounted.splice(this.mounted.indexOf(binding), 1);
    await binding.unmount();
  }

  /**
   * Over HTTP, the network between the binding and the server goes down (connections cut, new
   * ones reset) or comes back. In process there is no network: nothing happens.
   */
  network(up: boolean): void {
    if (up) this.server?.up();
    else this.server?.down();
  }

  /** The requests the HTTP server got since `from` ("GET /sessions/:id", ...); empty in process. */
  requests(from = 0): string[] {
    return (this.server?.requests ?? []).slice(from).map((request) => `${request.method} ${request.path}`);
  }

  requestCount(): number {
    return this.server?.requests.length ?? 0;
  }

  /** How many runs the session's log shows starting (continuations after a decision not counted). */
  runsStarted(sessionId: string): number {
    return this.agent.sessions.eventsAfter(sessionId, 0).filter((event) => event.type === 'run.start' && !(event as { continuation?: boolean }).continuation).length;
  }

  /** The state the agent's own log reduces to: what a binding that saw every event must show. */
  fromLog(sessionId: string): AgentUIState {
    let state: AgentUIState | undefined;
    for (const event of this.agent.sessions.eventsAfter(sessionId, 0)) state = reduceAgentEvents(state, event);
    return state!;
  }

  async close(): Promise<void> {
    // A "dead" process still waits in its model call: let it go (it can no longer write anything).
    for (const { agent, sessionId } of this.retired.splice(0)) agent.sessions.stop(sessionId);
    for (const binding of this.mounted.splice(0)) {
      try {
        await binding.unmount();
      } catch {
        // already unmounted by the scenario
      }
    }
    await this.server?.close();
  }
}

/**
 * Registers the conformance scenarios for one binding: each runs over the in-process transport
 * (`{ agent }`) and over HTTP (`{ url }`, a real node:http server on 127.0.0.1).
 *
 * ```ts
 * import { describe, expect, it } from 'vitest';
 * runConformanceSuite('Vue', vueDriver, { describe, it, expect });
 * ```
 */
export function runConformanceSuite(name: string, driver: BindingDriver, api: SuiteApi, options: ConformanceSuiteOptions = {}): void {
  const { describe, it, expect } = api;
  const timeoutMs = options.timeoutMs ?? 30_000;
  // The thread scenarios (switch, new, list, rename, delete), for a driver that mounts a thread list.
  runThreadsConformance(name, driver, api, options);

  for (const transport of options.transports ?? (['in-process', 'http'] as const)) {
    describe(`${name}: conformance over ${transport}`, () => {
      const scenario = (title: string, body: (w: World) => Promise<void>): void =>
        it(
          title,
          async () => {
            const world = new World(transport, driver);
            const unhandled: unknown[] = [];
            const onUnhandled = (reason: unknown): void => {
              unhandled.push(reason);
            };
            process.on('unhandledRejection', onUnhandled);
            try {
              await body(world);
              await settle();
              // Whatever the binding did, nothing may end in an unhandled rejection.
              expect(unhandled).toEqual([]);
            } finally {
              process.off('unhandledRejection', onUnhandled);
              await world.close();
            }
          },
          timeoutMs,
        );

      scenario('send → streaming text → tool call → approval → approve → final answer', async (w) => {
        const hold = gate();
        const { tool, sent } = emailTool();
        const args = { to: 'bob@example.com', subject: 'Friday' };
        await w.setup([['Let me ', 'send that.', { wait: hold }, { tool: 'send_email', id: 'call_email', args }], ['Email ', 'sent.']], { tools: [tool] });
        const finishes: string[] = [];
        const events: AgentStreamEvent[] = [];
        const errors: unknown[] = [];
        const b = await w.mount({ onFinish: (info) => finishes.push(info.finishReason), onEvent: (event) => events.push(event), onError: (error) => errors.push(error) });
        expect(b.state()).toEqual({ messages: [], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, guardrail: null, sessionId: undefined });

        const sending = b.send('Email Bob about Friday');
        // The reply shows while it streams, before the model has decided on the tool call.
        await eventually(() => {
          const state = b.state();
          expect(state.status).toBe('streaming');
          expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
          expect(textOf(state.messages[0])).toBe('Email Bob about Friday');
          expect(lastText(state)).toBe('Let me send that.');
          expect(state.sessionId).toEqual(expect.any(String));
        });
        expect(toolParts(b.state())).toEqual([]);

        hold.open();
        expect(await sending).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(b.state().status).toBe('awaiting-approval'));
        const paused = b.state();
        expect(paused.pendingApproval).toMatchObject({ kind: 'tool', toolName: 'send_email', args });
        expect(toolParts(paused)).toEqual([expect.objectContaining({ toolName: 'send_email', state: 'awaiting-approval', args })]);
        expect(sent).toEqual([]);

        expect(await b.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', pendingApproval: null, error: null }));
        const final = b.state();
        expect(toolParts(final)).toEqual([
          expect.objectContaining({ state: 'done', result: { messageId: 'bob@example.com:Friday' }, approval: expect.objectContaining({ approved: true }) }),
        ]);
        expect(lastText(final)).toBe('Email sent.');
        expect(final.usage).toMatchObject({ inputTokens: 20, outputTokens: 10, modelCalls: 2 });
        expect(sent).toEqual(['bob@example.com']);
        expect(finishes).toEqual(['awaiting-approval', 'stop']);
        expect(errors).toEqual([]);
        // Every event once, in order; deltas that waited for a reader that was behind may come
        // merged over HTTP, standing for `fromSeq`..`seq`.
        const covered = events.flatMap((event) => {
          const from = (event as { fromSeq?: number }).fromSeq ?? event.seq;
          return Array.from({ length: event.seq - from + 1 }, (_, i) => from + i);
        });
        expect(covered).toEqual(covered.map((_, i) => i + 1));
        // Exactly what the agent's own log reduces to.
        expect(shown(final)).toEqual(shown(w.fromLog(final.sessionId!)));
        // One run, one request per action: mounting without a session asks the server nothing.
        expect(w.model.calls).toHaveLength(2);
        expect(w.runsStarted(final.sessionId!)).toBe(1);
        if (w.transport === 'http') {
          const id = encodeURIComponent(final.sessionId!);
          expect(w.requests()).toEqual([`POST /sessions/${id}/messages`, `POST /sessions/${id}/approvals/${encodeURIComponent(paused.pendingApproval!.approvalId)}`]);
        }
      });

      scenario('a guardrail block ends the run: finishReason guardrail, the guardrail shown, the call denied, the session goes on', async (w) => {
        const { tool, ran } = shellTool();
        await w.setup([['Cleaning up.', { tool: 'shell', id: 'call_rm', args: { command: 'cd / && sudo rm -rf *' } }], ['Hello again.']], {
          tools: [tool],
          guardrails: { tool: [createCommandGuardrail({ deny: ['rm -rf /'] })] },
        });
        const finishes: string[] = [];
        const b = await w.mount({ onFinish: (info) => finishes.push(info.finishReason) });
        expect(await b.send('free some disk space')).toMatchObject({ ok: true, finishReason: 'guardrail' });
        const guardrail = { name: 'command', stage: 'tool', reason: "'rm -rf *' is denied: it matches the rule 'rm -rf /'." };
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'guardrail', guardrail, error: null, pendingApproval: null }));
        expect(toolParts(b.state())).toEqual([
          expect.objectContaining({ toolName: 'shell', state: 'error', error: expect.objectContaining({ kind: 'denied', reason: guardrail.reason }) }),
        ]);
        expect(ran).toEqual([]);
        expect(finishes).toEqual(['guardrail']);
        expect(shown(b.state())).toEqual(shown(w.fromLog(b.state().sessionId!)));
        // The next turn starts clean: the guardrail is gone from the state.
        expect(await b.send('hi')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', guardrail: null }));
        expect(lastText(b.state())).toBe('Hello again.');
      });

      scenario('an input guardrail block ends the run before any model call; the input stays out of the transcript', async (w) => {
        const noPasswords = { name: 'no-passwords', check: (ctx: GuardrailContext) => (ctx.stage === 'input' && /password/i.test(ctx.text) ? { block: 'Do not share passwords.' } : undefined) };
        await w.setup([['Hello.']], { guardrails: { input: [noPasswords] } });
        const finishes: string[] = [];
        const b = await w.mount({ onFinish: (info) => finishes.push(info.finishReason) });
        expect(await b.send('my password is hunter2')).toMatchObject({ ok: true, finishReason: 'guardrail' });
        const guardrail = { name: 'no-passwords', stage: 'input', reason: 'Do not share passwords.' };
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'guardrail', guardrail, error: null }));
        expect(w.model.calls).toHaveLength(0);
        expect(finishes).toEqual(['guardrail']);
        expect(shown(b.state())).toEqual(shown(w.fromLog(b.state().sessionId!)));
        // The blocked input is not part of the conversation the model will see next.
        expect(await b.send('hi')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', guardrail: null }));
        expect(JSON.stringify(w.model.calls[0])).not.toContain('hunter2');
      });

      scenario('an output guardrail block ends the run on the final reply, which never goes back to the model', async (w) => {
        const noKeys = { name: 'no-keys', check: (ctx: GuardrailContext) => (ctx.stage === 'output' && ctx.text.includes('sk-') ? { block: 'The reply holds a key.' } : undefined) };
        await w.setup([['Your key is sk-live-1234.'], ['Hello again.']], { guardrails: { output: [noKeys] } });
        const b = await w.mount();
        expect(await b.send('what is my key?')).toMatchObject({ ok: true, finishReason: 'guardrail' });
        const guardrail = { name: 'no-keys', stage: 'output', reason: 'The reply holds a key.' };
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'guardrail', guardrail, error: null }));
        // The streamed reply gives way to the placeholder the transcript keeps, live and in the stored log.
        expect(lastText(b.state())).toBe("[This reply was withheld by the guardrail 'no-keys'.]");
        expect(JSON.stringify(b.state().messages)).not.toContain('sk-live-1234');
        const sessionId = b.state().sessionId!;
        expect(JSON.stringify(w.agent.sessions.eventsAfter(sessionId, 0))).not.toContain('sk-live-1234');
        expect(shown(b.state())).toEqual(shown(w.fromLog(sessionId)));
        // A reload shows what the live page shows: never the reply.
        const reloaded = await w.mount({}, sessionId);
        await eventually(() => expect(reloaded.state()).toMatchObject({ status: 'idle', finishReason: 'guardrail', guardrail }));
        expect(shown(reloaded.state())).toEqual(shown(b.state()));
        await w.unmount(reloaded);
        expect(await b.send('hi')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', guardrail: null }));
        expect(JSON.stringify(w.model.calls[1])).not.toContain('sk-live-1234');
      });

      scenario("a tool guardrail with onBlock 'deny-call' denies only that call: the model reads why and the run goes on", async (w) => {
        const { tool, ran } = shellTool();
        await w.setup([[{ tool: 'shell', id: 'call_push', args: { command: 'git push --force' } }], ['I will not force-push.']], {
          tools: [tool],
          guardrails: { tool: [{ ...createCommandGuardrail({ deny: ['git push --force'] }), onBlock: 'deny-call' }] },
        });
        const b = await w.mount();
        expect(await b.send('ship it')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', guardrail: null }));
        expect(toolParts(b.state())).toEqual([expect.objectContaining({ toolName: 'shell', state: 'error', error: expect.objectContaining({ kind: 'denied' }) })]);
        expect(ran).toEqual([]);
        expect(lastText(b.state())).toBe('I will not force-push.');
        expect(JSON.stringify(w.model.calls[1])).toContain('git push --force');
        expect(shown(b.state())).toEqual(shown(w.fromLog(b.state().sessionId!)));
      });

      scenario('reject with a note: the tool does not run and the model reads the note', async (w) => {
        const { tool, sent } = emailTool();
        await w.setup([[{ tool: 'send_email', id: 'call_email', args: { to: 'eve@example.com', subject: 'Hi' } }], ['OK, I will not send it.']], { tools: [tool] });
        const b = await w.mount();
        expect(await b.send('Email Eve')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(b.state().pendingApproval).toMatchObject({ toolName: 'send_email' }));
        expect(await b.reject('not to externals')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', pendingApproval: null }));
        expect(toolParts(b.state())).toEqual([
          expect.objectContaining({ state: 'rejected', approval: expect.objectContaining({ approved: false, note: 'not to externals' }) }),
        ]);
        expect(lastText(b.state())).toBe('OK, I will not send it.');
        expect(sent).toEqual([]);
        const toolMessage = w.model.calls[1]!.find((message) => message.role === 'tool');
        expect(JSON.stringify(toolMessage?.content)).toContain('not to externals');
      });

      scenario('a question, answered: the answer is the result and the run goes on', async (w) => {
        await w.setup([[{ tool: 'ask_question', id: 'q1', args: { question: 'Which city?' } }], ['Paris it is.']], { askQuestion: true });
        const errors: { code: string }[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error) });
        expect(await b.send('Plan a trip')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(b.state().pendingApproval).toMatchObject({ kind: 'question', question: 'Which city?' }));
        // The wrong action for a question is refused and changes nothing.
        const before = b.state();
        expect(await b.approve()).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_KIND_MISMATCH' } });
        await settle();
        expect(b.state()).toEqual(before);
        expect(errors.map((error) => error.code)).toEqual(['LOUSHO_APPROVAL_KIND_MISMATCH']);

        expect(await b.answer('Paris')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', pendingApproval: null }));
        expect(toolParts(b.state())).toEqual([expect.objectContaining({ toolName: 'ask_question', state: 'done', result: 'Paris', approval: expect.objectContaining({ answer: 'Paris' }) })]);
        expect(lastText(b.state())).toBe('Paris it is.');
        expect(w.model.calls[1]!.find((message) => message.role === 'tool')?.content).toBe('Paris');
      });

      scenario('a browser tool: the call waits on its card (awaiting-client), a bad result is refused and changes nothing, it survives a reload, a second tab cannot answer twice', async (w) => {
        await w.setup([['Let me look.', { tool: 'time_zone', id: 'tz1', args: {} }], ['You are in Europe/Paris.']], { tools: [timeZoneTool()] });
        const errors: { code: string }[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error) });
        expect(await b.send('Where am I?')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(b.state().pendingApproval).toMatchObject({ kind: 'client', toolName: 'time_zone', toolCallId: 'tz1' }));
        expect(toolParts(b.state())).toEqual([expect.objectContaining({ toolName: 'time_zone', state: 'awaiting-client', approval: expect.objectContaining({ kind: 'client' }) })]);
        // The wrong action, and a result that fails the tool's schema: refused, nothing changes.
        const before = b.state();
        expect(await b.approve()).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_KIND_MISMATCH' } });
        await settle();
        expect(b.state()).toEqual(before);
        // The server checks the result: refused with its code in state.error, the call still waiting.
        expect(await b.submitToolResult('tz1', { timeZone: 7 })).toMatchObject({ ok: false, error: { code: 'LOUSHO_INVALID_TOOL_OUTPUT' } });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_INVALID_TOOL_OUTPUT' }, pendingApproval: before.pendingApproval, messages: before.messages }));
        expect(await b.submitToolResult('other', { timeZone: 'UTC' })).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
        expect(errors.map((error) => error.code)).toEqual(['LOUSHO_APPROVAL_KIND_MISMATCH', 'LOUSHO_INVALID_TOOL_OUTPUT', 'LOUSHO_APPROVAL_NOT_FOUND']);
        const sessionId = b.state().sessionId!;
        // Nothing was recorded: the session's log still ends with the pause.
        expect(shown(w.fromLog(sessionId))).toEqual(shown({ ...before, sessionId: undefined } as never));

        // A reload shows the call still waiting, as it was live; a second tab sees it too.
        const reloaded = await w.mount({}, sessionId);
        await eventually(() => expect(shown(reloaded.state())).toEqual(shown(before)));
        expect(await reloaded.submitToolResult('tz1', { timeZone: 'Europe/Paris' })).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(reloaded.state()).toMatchObject({ status: 'idle', finishReason: 'stop', pendingApproval: null }));
        expect(toolParts(reloaded.state())).toEqual([expect.objectContaining({ state: 'done', result: { timeZone: 'Europe/Paris' }, approval: expect.objectContaining({ approved: true }) })]);
        expect(lastText(reloaded.state())).toBe('You are in Europe/Paris.');
        // The first tab, late (it still shows the call waiting): the server refuses a second answer.
        expect(await b.submitToolResult('tz1', { timeZone: 'Asia/Tokyo' })).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_PENDING' } });
        const third = await w.mount({}, sessionId);
        await eventually(() => expect(shown(third.state())).toEqual(shown(w.fromLog(sessionId))));
        expect(toolParts(third.state())).toEqual([expect.objectContaining({ state: 'done', result: { timeZone: 'Europe/Paris' } })]);
        expect(w.model.calls).toHaveLength(2);
        expect(JSON.parse(w.model.calls[1]!.find((message) => message.role === 'tool')!.content as string)).toEqual({ timeZone: 'Europe/Paris' });
      });

      scenario('a browser tool with a handler: the binding runs it and sends its result; a handler that throws is the call\'s error', async (w) => {
        await w.setup(
          [[{ tool: 'time_zone', id: 'tz1', args: {} }], ['Paris.'], [{ tool: 'time_zone', id: 'tz2', args: {} }], ['Could not tell.']],
          { tools: [timeZoneTool()] },
        );
        const seen: string[] = [];
        let fail = false;
        const b = await w.mount({
          browserTools: {
            time_zone: async (_args: unknown, { toolCallId }: { toolCallId: string }) => {
              seen.push(toolCallId);
              if (fail) throw new Error('Intl is not available');
              return { timeZone: 'Europe/Paris' };
            },
          },
        });
        await b.send('Where am I?');
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        expect(toolParts(b.state())).toEqual([expect.objectContaining({ toolCallId: 'tz1', state: 'done', result: { timeZone: 'Europe/Paris' } })]);
        expect(lastText(b.state())).toBe('Paris.');
        fail = true;
        await b.send('Again?');
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        expect(toolParts(b.state()).at(-1)).toMatchObject({ toolCallId: 'tz2', state: 'error', error: expect.objectContaining({ kind: 'execution', message: 'Intl is not available' }) });
        expect(lastText(b.state())).toBe('Could not tell.');
        // Each call ran once.
        expect(seen).toEqual(['tz1', 'tz2']);
      });

      scenario('stop mid-stream: the run ends as aborted, every tool call ends with a result, the session goes on', async (w) => {
        const { tool, started } = waitTool();
        await w.setup(
          [
            ['Working', ' on it.', { tool: 'wait', id: 'w1' }, { tool: 'wait', id: 'w2' }],
            ['Ready again.'],
          ],
          { tools: [tool] },
        );
        const b = await w.mount();
        const sending = b.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(b.state()).map((part) => part.state)).toEqual(['running', 'running']));
        expect(await b.stop()).toMatchObject({ ok: true, finishReason: 'aborted' });
        expect(await sending).toMatchObject({ ok: true, finishReason: 'aborted' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'aborted', finishReason: 'aborted' }));
        const parts = toolParts(b.state());
        expect(parts).toHaveLength(2);
        for (const part of parts) expect(['done', 'error', 'cancelled']).toContain(part.state);
        // In the transcript, each call has its result: the next model call would be valid.
        const transcript = w.agent.sessions.get(b.state().sessionId!)!.messages;
        const calls = transcript.flatMap((message) => message.toolCalls ?? []).map((call) => call.id);
        expect(transcript.filter((message) => message.role === 'tool').map((message) => message.toolCallId).sort()).toEqual(calls.sort());
        // Nothing runs any more: stopping again is a no-op and a new turn works.
        expect(await b.stop()).toMatchObject({ ok: true, finishReason: null });
        expect(await b.send('and now?')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(lastText(b.state())).toBe('Ready again.'));
        expect(b.state().status).toBe('idle');
      });

      scenario('a dropped connection: `reconnecting` while the server cannot be reached, then the exact state, no error, no call cancelled', async (w) => {
        const { tool, started, release } = slowTool();
        const hold = gate();
        await w.setup([['Looking ', 'it up.', { tool: 'slow', id: 's1' }], ['Found ', { wait: hold }, 'it.']], { tools: [tool] });
        const errors: unknown[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error) });
        const sending = b.send('Find it');
        await started.promise;
        await eventually(() => expect(toolParts(b.state())).toEqual([expect.objectContaining({ state: 'running' })]));
        const sessionId = b.state().sessionId!;

        w.network(false);
        // Over HTTP the binding shows that it is trying to reach the server again; in process
        // nothing was lost and the reply is still streaming.
        await eventually(() => expect(b.state().status).toBe(w.transport === 'http' ? 'reconnecting' : 'streaming'));
        // Meanwhile the run goes on: the tool returns and the reply is written to its end.
        release.open();
        await eventually(() => expect(w.model.calls).toHaveLength(2));
        hold.open();
        await eventually(() => expect(w.agent.sessions.get(sessionId)!.status).toBe('idle'));
        if (w.transport === 'http') {
          // Nothing given up on: the call is still shown running, never cancelled.
          expect(b.state().status).toBe('reconnecting');
          expect(toolParts(b.state())).toEqual([expect.objectContaining({ state: 'running' })]);
        }

        w.network(true);
        expect(await sending).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', error: null }));
        expect(shown(b.state())).toEqual(shown(w.fromLog(sessionId)));
        expect(toolParts(b.state())).toEqual([expect.objectContaining({ state: 'done', result: 'slow result' })]);
        expect(lastText(b.state())).toBe('Found it.');
        expect(errors).toEqual([]);
      });

      scenario('a server error: shown in state.error with its code, onError called, cleared by the next turn', async (w) => {
        await w.setup([[new Error('provider down')], ['Back online.']]);
        const errors: { code: string; message: string }[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error) });
        const result = await b.send('Hi');
        expect(result).toMatchObject({ ok: false, error: { code: expect.any(String), message: expect.stringContaining('provider down') } });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'error', error: { code: expect.any(String), message: expect.stringContaining('provider down') } }));
        expect(errors).toEqual([expect.objectContaining({ code: b.state().error!.code, message: expect.stringContaining('provider down') })]);
        // No stack trace reaches the UI.
        expect(b.state().error!.message).not.toMatch(/\n\s+at /);

        expect(await b.send('Again')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', error: null, finishReason: 'stop' }));
        expect(lastText(b.state())).toBe('Back online.');
      });

      scenario('a page reload restores the transcript and the pending approval, then the approval goes through', async (w) => {
        const { tool, sent } = emailTool();
        await w.setup([['First answer.'], ['Sending.', { tool: 'send_email', id: 'call_email', args: { to: 'bob@example.com', subject: 'Hi' } }], ['Sent.']], {
          tools: [tool],
        });
        const first = await w.mount();
        await first.send('Hello');
        expect(await first.send('Email Bob')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(first.state().status).toBe('awaiting-approval'));
        const before = first.state();
        await w.unmount(first);

        const seen = w.requestCount();
        const second = await w.mount({}, before.sessionId);
        await eventually(() => expect(second.state().status).toBe('awaiting-approval'));
        const restored = second.state();
        expect(restored.sessionId).toBe(before.sessionId);
        expect(restored.pendingApproval).toEqual(before.pendingApproval);
        expect(restored.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
        expect(textOf(restored.messages[1])).toBe('First answer.');
        // The latest run comes back as it streamed.
        expect(plain(restored.messages.slice(2))).toEqual(plain(before.messages.slice(2)));
        await settle();
        if (w.transport === 'http') expect(w.requests(seen)).toEqual([`GET /sessions/${encodeURIComponent(before.sessionId!)}`]);

        expect(await second.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(lastText(second.state())).toBe('Sent.'));
        expect(sent).toEqual(['bob@example.com']);
      });

      scenario('delegation: the sub-agent works live inside the task part, its approval pauses the run, survives a reload, and goes on once', async (w) => {
        const hold = gate();
        const { tool, sent } = emailTool();
        const child = researcher(
          [['Looking into it.', { wait: hold }, { tool: 'lookup', id: 'r1', args: { query: 'Paris' } }], [{ tool: 'send_email', id: 'r2', args: { to: 'bob@example.com', subject: 'Notes' } }], ['Paris is sunny.']],
          [lookupTool(), tool],
        );
        const task = { subagent: 'researcher', prompt: 'Research Paris' };
        await w.setup([['Delegating.', { tool: 'task', id: 't1', args: task }], ['Done: Paris is sunny.']], { subagents: { researcher: child.agent } });
        const first = await w.mount();
        const sending = first.send('Research Paris in depth');
        // The sub-agent's text shows inside the task card while it works, not as the lead's text.
        await eventually(() => {
          const part = toolParts(first.state())[0];
          expect(part).toMatchObject({ toolName: 'task', state: 'running', subagent: { name: 'researcher', status: 'running', parts: [{ type: 'text', text: 'Looking into it.' }] } });
          expect(lastText(first.state())).toBe('Delegating.');
        });
        hold.open();
        expect(await sending).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(first.state().status).toBe('awaiting-approval'));
        const paused = first.state();
        expect(paused.pendingApproval).toMatchObject({ toolName: 'send_email', subagent: { name: 'researcher', depth: 1, toolCallId: 't1' } });
        expect(toolParts(paused)).toHaveLength(1);
        expect(toolParts(paused)[0]!.subagent).toMatchObject({
          status: 'awaiting-approval',
          parts: [{ type: 'text' }, { toolCallId: 'r1', state: 'done' }, { toolCallId: 'r2', state: 'awaiting-approval' }],
        });
        expect(shown(paused)).toEqual(shown(w.fromLog(paused.sessionId!)));
        await w.unmount(first);

        // A reload while the sub-agent waits brings its work back, then the approval goes through.
        const second = await w.mount({}, paused.sessionId);
        await eventually(() => expect(second.state().status).toBe('awaiting-approval'));
        expect(plain(second.state().messages)).toEqual(plain(paused.messages));
        expect(await second.approve()).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(second.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        const done = toolParts(second.state())[0]!;
        expect(done).toMatchObject({ state: 'done', result: 'Paris is sunny.', subagent: { status: 'done' } });
        expect(done.subagent!.parts.at(-1)).toEqual({ type: 'text', text: 'Paris is sunny.' });
        expect(lastText(second.state())).toBe('Done: Paris is sunny.');
        expect(sent).toEqual(['bob@example.com']);
        expect(child.model.calls).toHaveLength(3);
        expect(w.model.calls).toHaveLength(2);
        expect(second.state().usage).toMatchObject({ modelCalls: 5, delegated: { runs: 1, modelCalls: 3 } });
      });

      scenario('delegation: stopping while the sub-agent works cancels it and the task, and the session goes on', async (w) => {
        const { tool, started } = waitTool();
        const child = researcher([['Waiting.', { tool: 'wait', id: 'r1' }]], [tool]);
        await w.setup([[{ tool: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Wait' } }], ['Ready again.']], { subagents: { researcher: child.agent } });
        const b = await w.mount();
        const sending = b.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(b.state())[0]?.subagent?.parts).toEqual([expect.objectContaining({ type: 'text' }), expect.objectContaining({ toolCallId: 'r1', state: 'running' })]));
        expect(await b.stop()).toMatchObject({ ok: true, finishReason: 'aborted' });
        expect(await sending).toMatchObject({ ok: true, finishReason: 'aborted' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'aborted' }));
        const part = toolParts(b.state())[0]!;
        expect(part).toMatchObject({ state: 'cancelled', subagent: { status: 'cancelled' } });
        expect(part.subagent!.parts[1]).toMatchObject({ toolCallId: 'r1', state: 'cancelled' });
        expect(await b.send('and now?')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(lastText(b.state())).toBe('Ready again.'));
      });

      scenario('a reload restores every turn as it streamed: display names, artifacts, approval decisions and notes, errors', async (w) => {
        const { tool: email } = emailTool();
        await w.setup(
          [
            ['Looking.', { tool: 'lookup', id: 'call_lookup', args: { query: 'launch' } }],
            ['Found it.'],
            [{ tool: 'send_email', id: 'call_email', args: { to: 'eve@example.com', subject: 'Hi' } }],
            ['Not sent.'],
            [new Error('provider down')],
            ['Now ', { tool: 'send_email', id: 'call_email_2', args: { to: 'bob@example.com', subject: 'Hi' } }],
          ],
          { tools: [lookupTool(), email] },
        );
        const first = await w.mount();
        await first.send('Find the launch');
        expect(await first.send('Email Eve')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        expect(await first.reject('not to externals')).toMatchObject({ ok: true, finishReason: 'stop' });
        expect(await first.send('Again')).toMatchObject({ ok: false });
        expect(await first.send('Email Bob')).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(first.state().status).toBe('awaiting-approval'));
        const before = first.state();
        const parts = before.messages.flatMap((message) => message.parts);
        expect(parts).toContainEqual(expect.objectContaining({ toolName: 'lookup', displayName: 'Look up', state: 'done', artifacts: [expect.objectContaining({ title: 'Source' })] }));
        expect(parts).toContainEqual(expect.objectContaining({ toolName: 'send_email', displayName: 'Send email', state: 'rejected', approval: expect.objectContaining({ approved: false, note: 'not to externals' }) }));
        await w.unmount(first);

        const second = await w.mount({}, before.sessionId);
        await eventually(() => expect(second.state().status).toBe('awaiting-approval'));
        // Every turn, not only the last one, exactly as the first mount had it.
        expect(shown(second.state())).toEqual(shown(before));
        expect(shown(second.state())).toEqual(shown(w.fromLog(before.sessionId!)));
      });

      scenario('a server that dies mid-reply: the turn goes on from its checkpoint, its reply shown once, no call left streaming', async (w) => {
        const never = gate();
        const store = memoryStore();
        await w.setup([['Let me ', 'check.', { streaming: 'lookup', id: 'call_lookup', argsStart: '{"query":' }, { wait: never }]], { tools: [lookupTool()], store });
        let b = await w.mount();
        void b.send('Check the launch');
        await eventually(() => {
          expect(lastText(b.state())).toBe('Let me check.');
          expect(toolParts(b.state())).toEqual([expect.objectContaining({ toolName: 'lookup', state: 'input-streaming' })]);
        });
        const sessionId = b.state().sessionId!;
        // The process dies; a new one on the same store resumes the turn (it asks the model again for the reply that was cut).
        await w.restart(sessionId, [['Let me ', 'check.', { tool: 'lookup', id: 'call_lookup', args: { query: 'launch' } }], ['Found it.']]);
        // Over HTTP the same client reconnects to the new process; in process, the page starts again with it.
        if (w.transport === 'in-process') {
          await w.unmount(b);
          b = await w.mount({}, sessionId);
        }
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', error: null }));
        const state = b.state();
        expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
        expect(plain(state.messages[1]!.parts)).toEqual([
          { type: 'text', text: 'Let me check.' },
          expect.objectContaining({ type: 'tool', toolCallId: 'call_lookup', displayName: 'Look up', state: 'done', result: { found: 'launch' } }),
          { type: 'text', text: 'Found it.' },
        ]);
        expect(shown(state)).toEqual(shown(w.fromLog(sessionId)));
        const log = w.agent.sessions.eventsAfter(sessionId, 0);
        expect(log.filter((event) => event.type === 'run.interrupted')).toHaveLength(1);
      });

      scenario('resuming a turn still running: a new mount on the session follows it to the end', async (w) => {
        const { tool, started, release } = slowTool();
        await w.setup([['Working on it.', { tool: 'slow', id: 's1' }], ['All done.']], { tools: [tool] });
        const first = await w.mount();
        const sending = first.send('go');
        await started.promise;
        await eventually(() => expect(toolParts(first.state())).toEqual([expect.objectContaining({ state: 'running' })]));
        const sessionId = first.state().sessionId!;
        await w.unmount(first);
        // Unmounting stops following, never the run.
        const detached = await sending;
        expect(detached.ok).toBe(false);
        expect(['LOUSHO_CLIENT_DETACHED', 'LOUSHO_CLIENT_DESTROYED']).toContain(!detached.ok && detached.error.code);
        expect(w.agent.sessions.get(sessionId)!.status).toBe('running');

        const finishes: string[] = [];
        const second = await w.mount({ onFinish: (info) => finishes.push(info.finishReason) }, sessionId);
        await eventually(() => {
          expect(lastText(second.state())).toBe('Working on it.');
          expect(toolParts(second.state())).toEqual([expect.objectContaining({ state: 'running' })]);
        });
        expect(['submitted', 'streaming']).toContain(second.state().status);
        release.open();
        await eventually(() => expect(second.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        expect(lastText(second.state())).toBe('All done.');
        expect(finishes).toEqual(['stop']);
        expect(shown(second.state())).toEqual(shown(w.fromLog(sessionId)));
        expect(w.runsStarted(sessionId)).toBe(1);
      });

      scenario('a turn whose server process died: shown interrupted (nothing left streaming), and resume() finishes it', async (w) => {
        const store = await storeWithInterruptedTurn({ sessionId: 'cut', input: 'go', reply: 'Working on it.', tool: 'slow', callId: 's1' });
        const { tool, release } = slowTool();
        release.open();
        const finishes: string[] = [];
        const errors: unknown[] = [];
        // This process's agent shares the store; the model is only asked for what comes after the call.
        await w.setup([['All done.']], { tools: [tool], store });
        const b = await w.mount({ onFinish: (info) => finishes.push(info.finishReason), onError: (error) => errors.push(error) }, 'cut');
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'interrupted', error: null }));
        const cut = b.state();
        expect(cut.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
        expect(lastText(cut)).toBe('Working on it.');
        // Nothing its process was doing is shown as still going (the call it ran is run again on resume).
        expect(toolParts(cut).filter((part) => part.state === 'running' || part.state === 'input-streaming')).toEqual([]);

        expect(await b.resume()).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        const done = b.state();
        // The call ran again (same id) and the reply goes on in the same message, shown once.
        expect(toolParts(done)).toEqual([expect.objectContaining({ toolCallId: 's1', state: 'done', result: 'slow result' })]);
        expect(done.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
        expect(textOf(done.messages[1])).toBe('Working on it.All done.');
        expect(shown(done)).toEqual(shown(w.fromLog('cut')));
        expect(finishes).toEqual(['stop']);
        expect(errors).toEqual([]);
        // Nothing left to resume: the server says so (the error shows; the transcript stays as it was).
        expect(await b.resume()).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_NOT_RESUMABLE' } });
        await eventually(() => expect(b.state().error).toMatchObject({ code: 'LOUSHO_SESSION_NOT_RESUMABLE' }));
        expect(plain(b.state().messages)).toEqual(plain(done.messages));
      });

      scenario('mounting on a session reads it once and starts nothing', async (w) => {
        await w.setup([['Hi there.']]);
        const first = await w.mount();
        await first.send('Hello');
        const sessionId = first.state().sessionId!;
        await w.unmount(first);
        const seen = w.requestCount();

        const second = await w.mount({}, sessionId);
        await eventually(() => expect(second.state().messages).toHaveLength(2));
        await settle(5);
        expect(second.state()).toMatchObject({ status: 'idle', sessionId, pendingApproval: null, error: null });
        expect(w.model.calls).toHaveLength(1);
        expect(w.runsStarted(sessionId)).toBe(1);
        if (w.transport === 'http') expect(w.requests(seen)).toEqual([`GET /sessions/${encodeURIComponent(sessionId)}`]);
      });

      scenario('impossible actions are refused with a result, onError, and no change of state', async (w) => {
        const { tool, started, release } = slowTool();
        await w.setup([[{ tool: 'slow', id: 's1' }], ['ok']], { tools: [tool] });
        const errors: string[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error.code) });
        const idle = b.state();
        expect(await b.approve()).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
        expect(await b.reject('no')).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
        expect(await b.answer('x')).toMatchObject({ ok: false, error: { code: 'LOUSHO_APPROVAL_NOT_FOUND' } });
        await settle();
        expect(b.state()).toEqual(idle);

        const first = b.send('go');
        await started.promise;
        // (`mode: 'turn'`: a turn now or nothing; a plain send would wait in the queue.)
        expect(await b.send('again', { mode: 'turn' })).toMatchObject({ ok: false, error: { code: 'LOUSHO_SESSION_BUSY' } });
        release.open();
        expect(await first).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', error: null }));
        expect(errors).toEqual(['LOUSHO_APPROVAL_NOT_FOUND', 'LOUSHO_APPROVAL_NOT_FOUND', 'LOUSHO_APPROVAL_NOT_FOUND', 'LOUSHO_SESSION_BUSY']);
        expect(w.model.calls).toHaveLength(2);
      });

      queueScenarios(scenario, expect);

      scenario('reset starts a new, empty session; the old one keeps its transcript', async (w) => {
        await w.setup([['one'], ['two']]);
        const b = await w.mount();
        await b.send('first');
        await eventually(() => expect(b.state().messages).toHaveLength(2));
        const oldId = b.state().sessionId!;
        b.reset();
        await eventually(() => expect(b.state()).toEqual({ messages: [], status: 'idle', pendingApproval: null, error: null, usage: null, finishReason: null, guardrail: null, sessionId: undefined }));
        expect(await b.send('second')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state().messages.map((m) => m.role)).toEqual(['user', 'assistant']));
        expect(b.state().sessionId).toEqual(expect.any(String));
        expect(b.state().sessionId).not.toBe(oldId);
        expect(lastText(b.state())).toBe('two');
        expect(w.agent.sessions.get(oldId)!.messages).toHaveLength(2);
      });

      scenario('a flow: node parts stream in order with their agent runs nested, an approval node pauses, approve runs it on', async (w) => {
        const hold = gate();
        const { agent } = triageFlow(hold);
        await w.setupAgent(agent);
        const events: AgentStreamEvent[] = [];
        const b = await w.mount({ onEvent: (event) => events.push(event) });
        const sending = b.send('I want a refund');
        // The draft node's agent streams: its words show in its part, not in the reply's text.
        await eventually(() => {
          const draft = flowParts(b.state()).find((part) => part.toolName === 'draft');
          expect(draft).toMatchObject({ kind: 'agent', state: 'running' });
          expect(draft!.run?.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'We will refund' }]);
        });
        expect(b.state().status).toBe('streaming');
        hold.open();
        expect(await sending).toMatchObject({ ok: true, finishReason: 'awaiting-approval' });
        await eventually(() => expect(b.state().status).toBe('awaiting-approval'));
        const paused = b.state();
        expect(paused.pendingApproval).toMatchObject({ toolName: 'review', displayName: 'Send this reply?', args: 'We will refund your order.', kind: 'tool' });
        expect(flowParts(paused).map((part) => [part.toolName, part.kind, part.state])).toEqual([
          ['classify', 'agent', 'done'],
          ['route', 'oneOf', 'done'],
          ['draft', 'agent', 'done'],
          ['review', 'approval', 'awaiting-approval'],
        ]);
        expect(flowParts(paused)[1]).toMatchObject({ result: 'draft' });

        expect(await b.approve('looks right')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop', pendingApproval: null }));
        const final = b.state();
        expect(flowParts(final).map((part) => [part.toolName, part.state])).toEqual([
          ['classify', 'done'],
          ['route', 'done'],
          ['draft', 'done'],
          ['review', 'done'],
          ['send', 'done'],
        ]);
        expect(flowParts(final)[3]).toMatchObject({ result: { approved: true, note: 'looks right' }, approval: { approved: true, note: 'looks right' } });
        expect(lastText(final)).toBe('Sent: We will refund your order.');
        // Every event that changed the state reached onEvent once, in order (\`flow.branch\` changes none: the oneOf's result says it).
        const seqs = events.map((event) => event.seq);
        expect(seqs).toEqual([...new Set(seqs)].sort((a, b) => a - b));
        expect(events.filter((event) => event.type === 'flow.node.start')).toHaveLength(5);
        expect(shown(final)).toEqual(shown(w.fromLog(final.sessionId!)));
      });

      scenario('a flow: a failing node shows its error on its part and in state.error; a stop cancels the node still running', async (w) => {
        const hold = gate();
        await w.setupAgent(lookupFlow(hold).agent);
        const errors: { code: string; message: string }[] = [];
        const b = await w.mount({ onError: (error) => errors.push(error) });

        const failed = await b.send('fail');
        expect(failed).toMatchObject({ ok: false, error: { code: 'LOUSHO_FLOW_NODE_FAILED', message: expect.stringContaining('the lookup service is down') } });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'error', error: { code: 'LOUSHO_FLOW_NODE_FAILED' } }));
        expect(flowParts(b.state())).toEqual([
          expect.objectContaining({ toolName: 'lookup', kind: 'step', state: 'error', error: expect.objectContaining({ code: 'LOUSHO_FLOW_NODE_FAILED', message: expect.stringContaining('the lookup service is down') }) }),
        ]);
        expect(errors).toEqual([expect.objectContaining({ code: 'LOUSHO_FLOW_NODE_FAILED' })]);
        // No stack trace reaches the UI, on the part or in the state.
        expect(JSON.stringify(flowParts(b.state())) + b.state().error!.message).not.toMatch(/\n\s+at /);

        // The next turn clears the error; stopped while its agent node streams, the node is cancelled.
        const sending = b.send('go');
        await eventually(() => expect(flowParts(b.state()).map((part) => [part.toolName, part.state])).toEqual([
          ['lookup', 'error'],
          ['lookup', 'done'],
          ['think', 'running'],
        ]));
        await eventually(() => expect(flowParts(b.state()).at(-1)!.run?.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'Thinking' }]));
        expect(b.state().error).toBeNull();
        expect(await b.stop()).toMatchObject({ ok: true, finishReason: 'aborted' });
        expect(await sending).toMatchObject({ ok: true, finishReason: 'aborted' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'aborted', finishReason: 'aborted' }));
        expect(flowParts(b.state()).at(-1)).toMatchObject({ toolName: 'think', state: 'cancelled' });
        hold.open();
        // Both runs, as the session's log tells them.
        expect(shown(b.state())).toEqual(shown(w.fromLog(b.state().sessionId!)));
      });

      scenario('while a reply streams, earlier messages keep their identity', async (w) => {
        const hold = gate();
        await w.setup([['First ', 'answer.'], ['Second', { wait: hold }, ' answer.']]);
        const b = await w.mount();
        await b.send('one');
        await eventually(() => expect(lastText(b.state())).toBe('First answer.'));
        const [question, answer] = b.state().messages;
        const sending = b.send('two');
        await eventually(() => expect(lastText(b.state())).toBe('Second'));
        expect(b.state().messages[0]).toBe(question);
        expect(b.state().messages[1]).toBe(answer);
        hold.open();
        await sending;
        await eventually(() => expect(lastText(b.state())).toBe('Second answer.'));
        expect(b.state().messages[0]).toBe(question);
        expect(b.state().messages[1]).toBe(answer);
      });

      scenario('compaction: the reply shows a quiet divider where earlier tool results were shortened', async (w) => {
        // Two results of ~1,000 tokens each in a 2,000-token window: the third model call is over 90%.
        await w.setup([[{ tool: 'read_page', id: 'p1' }], [{ tool: 'read_page', id: 'p2' }], ['Both pages read.']], { tools: [pageTool()], compaction: { contextWindow: 2000 } });
        const events: AgentStreamEvent[] = [];
        const b = await w.mount({ onEvent: (event) => events.push(event) });
        expect(await b.send('Read two pages')).toMatchObject({ ok: true, finishReason: 'stop' });
        await eventually(() => expect(b.state()).toMatchObject({ status: 'idle', finishReason: 'stop' }));
        const state = b.state();
        expect(state.messages[1]!.parts.map((part) => part.type)).toEqual(['tool', 'tool', 'compaction', 'text']);
        // The divider says what was done: one older tool result shortened, nothing summarized.
        expect(state.messages[1]!.parts[2]).toStrictEqual({ type: 'compaction', pruned: 1, summarized: 0 });
        expect(lastText(state)).toBe('Both pages read.');
        // The client passes on the events that change its state: `compaction.done` (the log has both).
        expect(events.filter((event) => event.type.startsWith('compaction.'))).toEqual([expect.objectContaining({ type: 'compaction.done', step: 3, pruned: 1, summarized: 0 })]);
        const log = w.agent.sessions.eventsAfter(state.sessionId!, 0).filter((event) => event.type.startsWith('compaction.'));
        expect(log).toEqual([expect.objectContaining({ type: 'compaction.start', step: 3, contextWindow: 2000 }), expect.objectContaining({ type: 'compaction.done', step: 3 })]);
        // The model got the older result shortened, the newer one whole.
        const sent = w.model.calls[2]!.filter((message) => message.role === 'tool').map((message) => message.content);
        expect(sent).toEqual(['[pruned: read_page result, 4000 chars]', 'p'.repeat(4000)]);
        expect(shown(state)).toEqual(shown(w.fromLog(state.sessionId!)));
      });

      if (driver.supportsSourceChange) {
        scenario('a new session id switches sessions cleanly: the old one is no longer followed', async (w) => {
          const { tool, started, release } = slowTool();
          await w.setup([['B answer.'], [{ tool: 'slow', id: 's1' }], ['A done.'], ['More for B.']], { tools: [tool] });
          const onB = await w.mount();
          await onB.send('Hi B');
          const sessionB = onB.state().sessionId!;
          await w.unmount(onB);

          const b = await w.mount();
          const sendingA = b.send('Hi A');
          await started.promise;
          await eventually(() => expect(toolParts(b.state())).toEqual([expect.objectContaining({ state: 'running' })]));
          const sessionA = b.state().sessionId!;
          const seen = w.requestCount();
          await b.setSource!(w.source(sessionB));
          await eventually(() => {
            expect(b.state().sessionId).toBe(sessionB);
            expect(lastText(b.state())).toBe('B answer.');
          });
          expect((await sendingA).ok).toBe(false);
          // The old session's run goes on, unseen.
          release.open();
          await eventually(() => expect(w.agent.sessions.get(sessionA)!.status).toBe('idle'));
          await settle(5);
          expect(b.state()).toMatchObject({ status: 'idle', sessionId: sessionB });
          expect(lastText(b.state())).toBe('B answer.');
          if (w.transport === 'http') expect(w.requests(seen)).toEqual([`GET /sessions/${encodeURIComponent(sessionB)}`]);
          // Actions now go to the new session.
          expect(await b.send('More')).toMatchObject({ ok: true, finishReason: 'stop' });
          await eventually(() => expect(lastText(b.state())).toBe('More for B.'));
          expect(w.agent.sessions.get(sessionB)!.messages).toHaveLength(4);
        });
      }

      // (In a file of their own: attachment-scenarios.ts.)
      attachmentScenarios(scenario, expect);
    });
  }
}
