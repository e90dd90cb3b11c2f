import { z } from 'zod';
import { createAgent, defineTool, type CompactionOptions, type GenerateOptions, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';

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

/** One thing a scripted model step does: stream text, call a tool, wait for a gate, or fail. */
export type ScriptItem = string | { tool: string; id: string; args?: Record<string, unknown> } | { wait: Gate } | Error;

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

export interface ScriptedAgentExtra {
  tools?: any[];
  askQuestion?: boolean;
  compaction?: CompactionOptions;
}

export function scriptedAgent(steps: ScriptItem[][], extra: ScriptedAgentExtra = {}) {
  const model = scriptedModel(steps);
  const agent = createAgent({
    provider: model,
    ...(extra.tools && { tools: extra.tools }),
    ...(extra.askQuestion && { askQuestion: true }),
    ...(extra.compaction && { compaction: extra.compaction }),
  });
  return { agent, model };
}
