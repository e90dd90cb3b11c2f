import { createAgent, defineTool, memoryStore, textOf, type AgentStreamEvent, type Message } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { z } from 'zod';

/** The text of the last user message a model was sent. */
export function lastUserText(messages: readonly Message[]): string {
  for (let i = messages.length - 1; i >= 0; i--) if (messages[i]!.role === 'user') return textOf(messages[i]);
  return '';
}

/** An agent on a scripted model that answers every prompt with `reply(prompt)`. */
export function scriptedAgent(reply: (prompt: string) => string, options: { delayMs?: number } = {}) {
  const model = mockModel([(request) => reply(lastUserText(request.messages))], { whenExhausted: 'repeat-last', ...(options.delayMs ? { delayMs: options.delayMs } : {}) });
  return Object.assign(createAgent({ provider: model, store: memoryStore() }), { model });
}

export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: unknown) => void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

export async function collect(run: AsyncIterable<AgentStreamEvent>): Promise<AgentStreamEvent[]> {
  const events: AgentStreamEvent[] = [];
  for await (const event of run) events.push(event);
  return events;
}

export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Finds an order',
  input: z.object({ orderId: z.number(), note: z.string().optional() }),
  execute: async ({ orderId, note }) => ({ orderId, status: orderId > 100 ? 'shipped' : 'pending', note: note ?? null }),
});

/**
 * The pass a flow event's `toolCallId` names (`draft`, `draft#2`, `research/web`), checked to be
 * written behind its run's id (`<runId>:<pass>`), which keeps a session's runs apart in a UI.
 */
export function passOf(toolCallId: string, runId: string): string {
  if (!toolCallId.startsWith(`${runId}:`)) throw new Error(`toolCallId ${toolCallId} is not behind run ${runId}`);
  return toolCallId.slice(runId.length + 1);
}

/** `passOf` for an event of a run (its `runId` is its own). */
export const passOfEvent = (event: AgentStreamEvent): string => passOf((event as { toolCallId: string }).toolCallId, event.runId);
