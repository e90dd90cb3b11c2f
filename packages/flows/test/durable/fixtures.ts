import { memoryStore, type AgentStore } from '@lousho/core';
import { FlowBuilder } from '../../src/index.js';

/** A promise and the function that resolves it. */
export function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Polls `check` until it holds; throws after `timeoutMs`. */
export async function waitUntil(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met');
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/**
 * The flow of the durable tests, as one process builds it: every node (and branch) it runs is
 * logged in `ran`; `hang` makes chosen passes wait for a gate (a process about to die).
 */
export function jobFlow(ran: string[], hang: Record<string, Promise<void>> = {}) {
  const work = (key: string, value: unknown) => async () => {
    if (hang[key]) await hang[key];
    ran.push(key);
    return value;
  };
  return FlowBuilder.create<{ order: number }>('job')
    .step('fetch', work('fetch', { items: 3 }))
    .parallel('check', {
      branches: {
        stock: { run: work('check/stock', 'in stock') },
        fraud: { run: work('check/fraud', 'clean') },
        price: { run: work('check/price', 42) },
      },
    })
    .step('pack', work('pack', 'packed'))
    .approval('review', { title: 'Ship order {{input.order}}?' })
    .step('ship', work('ship', 'shipped'))
    .build();
}

/** A store as two processes see it: `one`, and `another()` (a second connection, or a second view of the memory). */
export interface StoreKind {
  name: string;
  open(): Promise<{ one: AgentStore; another(): Promise<AgentStore>; close(): Promise<void> }>;
}

export const memoryKind: StoreKind = {
  name: 'memory',
  async open() {
    const one = memoryStore();
    // Another object over the same maps: another process as far as the executor can tell.
    return { one, another: async () => ({ ...one }), close: async () => {} };
  },
};
