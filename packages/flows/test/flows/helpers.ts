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
