import { z } from 'zod';
import { createAgent, defineTool, memoryStore, withArtifacts, type AgentGuardrails, type AgentStore, type CompactionOptions, type FileStore, type GenerateOptions, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';
import { createFlowAgent, FlowBuilder } from '@lousho/flows';

/** A promise the test opens when it is ready. */
export interface Gate {
  promise: Promise<void>;
  open(): void;
}

export function gate(): Gate {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/**
 * One thing a scripted model step does: stream text, call a tool, start a call and stream the
 * first piece of its arguments (`streaming`), wait for a gate, or fail.
 */
export type ScriptItem =
  | string
  | { tool: string; id: string; args?: Record<string, unknown> }
  | { streaming: string; id: string; argsStart: string }
  | { wait: Gate }
  | Error;

export interface ScriptedModel extends LLMProvider {
  /** The transcript each call was given (copied). */
  readonly calls: Message[][];
}

const abortError = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');

/**
 * A deterministic model for the scenarios. Each call plays the next step: text deltas, tool calls
 * and gates in order, so a test can hold a reply in the middle and look at the UI.
 */
export function scriptedModel(steps: ScriptItem[][]): ScriptedModel {
  const calls: Message[][] = [];
  return {
    name: 'conformance',
    defaultModel: 'conformance-model',
    calls,
    async *stream(options: GenerateOptions): AsyncGenerator<StreamChunk> {
      const signal = options.signal;
      calls.push(JSON.parse(JSON.stringify(options.messages)) as Message[]);
      const step = steps[calls.length - 1];
      if (!step) throw new Error(`scriptedModel: call ${calls.length} has no script step.`);
      let index = 0;
      for (const item of step) {
        if (signal?.aborted) throw abortError(signal);
        if (typeof item === 'string') yield { type: 'text-delta', text: item };
        else if (item instanceof Error) throw item;
        else if ('wait' in item) {
          await new Promise<void>((resolve, reject) => {
            if (signal?.aborted) return reject(abortError(signal));
            signal?.addEventListener('abort', () => reject(abortError(signal)), { once: true });
            void item.wait.promise.then(resolve);
          });
        } else if ('streaming' in item) {
          yield { type: 'tool-call-start', index, id: item.id, name: item.streaming };
          yield { type: 'tool-call-delta', index: index++, argumentsDelta: item.argsStart };
        } else yield { type: 'tool-call', index: index++, id: item.id, name: item.tool, arguments: JSON.stringify(item.args ?? {}) };
      }
      yield { type: 'finish', finishReason: index > 0 ? 'tool_calls' : 'stop', usage: { promptTokens: 10, completionTokens: 5 } };
    },
  };
}

/** `send_email`, which always asks for approval; `sent` records what it really sent. */
export function emailTool() {
  const sent: string[] = [];
  const tool = defineTool({
    name: 'send_email',
    displayName: 'Send email',
    description: 'Send an email',
    input: z.object({ to: z.string(), subject: z.string() }),
    needsApproval: true,
    async execute({ to, subject }) {
      sent.push(to);
      return { messageId: `${to}:${subject}` };
    },
  });
  return { tool, sent };
}

/** `slow`, which runs until the test opens `release`. */
export function slowTool() {
  const started = gate();
  const release = gate();
  const tool = defineTool({
    name: 'slow',
    description: 'Slow work',
    input: z.object({}),
    async execute() {
      started.open();
      await release.promise;
      return 'slow result';
    },
  });
  return { tool, started, release };
}

/** `wait`, which runs until its run is stopped (it honours the abort signal). */
export function waitTool() {
  const started = gate();
  const tool = defineTool({
    name: 'wait',
    description: 'Waits until stopped',
    input: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        started.open();
        const signal = ctx.abortSignal!;
        if (signal.aborted) reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      }),
  });
  return { tool, started };
}

/** `read_page`, whose result is `chars` characters long (large results make a transcript compact). */
export function pageTool(chars = 4000) {
  return defineTool({ name: 'read_page', description: 'Reads a page', input: z.object({}), execute: async () => 'p'.repeat(chars) });
}

/** `shell`, which records the commands it really ran. */
export function shellTool() {
  const ran: string[] = [];
  const tool = defineTool({
    name: 'shell',
    description: 'Run a command',
    input: z.object({ command: z.string() }),
    async execute({ command }) {
      ran.push(command);
      return { exitCode: 0, stdout: '' };
    },
  });
  return { tool, ran };
}

/** `lookup` (shown as "Look up"), which answers at once with a result and an artifact. */
export function lookupTool() {
  return defineTool({
    name: 'lookup',
    displayName: 'Look up',
    description: 'Looks something up',
    input: z.object({ query: z.string() }),
    async execute({ query }) {
      return withArtifacts({ found: query }, [{ type: 'link', title: 'Source', data: { url: `https://example.com/${query}` } }]);
    },
  });
}

export interface ScriptedAgentOptions {
  tools?: any[];
  askQuestion?: boolean;
  /** Where sessions live (default: the agent's own memory); share one to play a server restart. */
  store?: AgentStore;
  compaction?: CompactionOptions;
  guardrails?: AgentGuardrails;
  /** Sub-agents of the lead (each its own scripted agent: `researcher(...)`). */
  subagents?: Record<string, unknown>;
  /** Where uploaded attachments live. */
  files?: FileStore;
}

/** A scripted sub-agent named `researcher`, with its own model and tools. */
export function researcher(steps: ScriptItem[][], tools: any[]) {
  const model = scriptedModel(steps);
  return { agent: createAgent({ name: 'researcher', description: 'Researches a topic in depth.', provider: model, tools }), model };
}

/** A browser tool (no `execute`): the page sends `{ timeZone }`, checked against its `outputSchema`. */
export function timeZoneTool() {
  return defineTool({
    name: 'time_zone',
    displayName: 'Time zone',
    description: "The user's time zone, read in the browser",
    input: z.object({}),
    outputSchema: z.object({ timeZone: z.string().min(1) }),
  });
}

export function scriptedAgent(steps: ScriptItem[][], extra: ScriptedAgentOptions = {}) {
  const model = scriptedModel(steps);
  const agent = createAgent({
    provider: model,
    ...(extra.tools && { tools: extra.tools }),
    ...(extra.askQuestion && { askQuestion: true }),
    ...(extra.store && { store: extra.store }),
    ...(extra.compaction && { compaction: extra.compaction }),
    ...(extra.guardrails && { guardrails: extra.guardrails }),
    ...(extra.subagents && { subagents: extra.subagents as never }),
    ...(extra.files && { files: extra.files }),
  });
  return { agent, model };
}

/** Every method of `part` answers as usual until `frozen.value` is set, then never again (a process that died). */
function freezable<T extends object>(part: T, frozen: { value: boolean }): T {
  return new Proxy(part, {
    get(target, key, receiver) {
      const value = Reflect.get(target, key, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => (frozen.value ? new Promise(() => {}) : (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

/**
 * A store holding a session whose turn was cut off by its server process dying: another agent on
 * the store (that process) streamed `reply`, called `tool` with `callId`, and died while it ran
 * (it answers nothing from then on, so its lease on the session runs out after `leaseMs`).
 * Resolves once the lease has run out: a process that reads the session then finds it interrupted.
 */
export async function storeWithInterruptedTurn(options: { sessionId: string; input: string; reply: string; tool: string; callId: string; leaseMs?: number }) {
  const leaseMs = options.leaseMs ?? 60;
  const store = memoryStore({ leaseMs });
  // Created as the HTTP handler would have (owned by its default principal), so both transports can read it.
  store.sessions.create(options.sessionId, { owner: 'anonymous' });
  const frozen = { value: false };
  const running = gate();
  const dying = defineTool({
    name: options.tool,
    description: 'Works until its process dies',
    input: z.object({}),
    async execute() {
      running.open();
      await new Promise(() => {});
      return '';
    },
  });
  const { agent } = scriptedAgent([[options.reply, { tool: options.tool, id: options.callId }]], {
    tools: [dying],
    store: { sessions: freezable(store.sessions, frozen), checkpoints: freezable(store.checkpoints, frozen), approvals: freezable(store.approvals, frozen) },
  });
  agent.send(options.input, { sessionId: options.sessionId }).catch(() => {});
  await running.promise;
  frozen.value = true;
  await new Promise((resolve) => setTimeout(resolve, leaseMs * 2));
  return store;
}

/**
 * The triage flow, served like an agent: classify (an agent), route (a oneOf), draft (an agent
 * whose reply waits for `hold` halfway), review (an approval node), send (a step).
 */
export function triageFlow(hold: Gate) {
  const classifier = scriptedModel([['refund']]);
  const writer = scriptedModel([['We will refund', { wait: hold }, ' your order.']]);
  const flow = FlowBuilder.create<{ message: string }>('triage')
    .agent('classify', { agent: createAgent({ provider: classifier }), input: 'Classify: {{input.message}}' })
    .oneOf('route', { branches: [{ when: "classify === 'refund'", then: 'draft' }], otherwise: 'draft' })
    .agent('draft', { agent: createAgent({ provider: writer }), input: 'Draft a reply to: {{input.message}}', after: 'route' })
    .approval('review', { title: 'Send this reply?', data: '{{draft}}' })
    .step('send', (vars) => ({ sent: vars.review.approved, text: vars.draft }))
    .build();
  const agent = createFlowAgent(flow, {
    store: memoryStore(),
    input: (input) => ({ message: typeof input === 'string' ? input : '' }),
    reply: (result) => (result.outputs.send ? `Sent: ${result.outputs.send.text}` : undefined),
  });
  return { agent, flow };
}

/**
 * A flow for the failure and stop paths: `lookup` (a step) fails when the message is `fail`;
 * otherwise `think` (an agent node) streams, waits on `hold`, and would finish after it.
 */
export function lookupFlow(hold: Gate) {
  const thinker = scriptedModel([['Thinking', { wait: hold }, ' done.'], ['Thought again.']]);
  const flow = FlowBuilder.create<{ message: string }>('lookup')
    .step('lookup', (vars) => {
      if (vars.input.message === 'fail') throw new Error('the lookup service is down');
      return 'found';
    })
    .agent('think', { agent: createAgent({ provider: thinker }), input: 'Think about {{lookup}}' })
    .build();
  const agent = createFlowAgent(flow, { store: memoryStore(), input: (input) => ({ message: typeof input === 'string' ? input : '' }) });
  return { agent, flow };
}
