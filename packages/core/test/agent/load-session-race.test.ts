import { expect, it } from 'vitest';
import { createAgent } from '../../src/index.js';
import { memoryStore, type CompleteAgentStore } from '../../src/stores/index.js';
import { mockModel } from '@lousho/testing';

/** Forwards every member to `target`, bound to it, except those in `overrides`. */
function overriding<T extends object>(target: T, overrides: Partial<T>): T {
  return new Proxy(target, {
    get(t, key) {
      if (key in overrides) return (overrides as Record<PropertyKey, unknown>)[key];
      const value = Reflect.get(t, key, t);
      return typeof value === 'function' ? value.bind(t) : value;
    },
  });
}

it('loading a session whose record was read just before its leg ended shows the end, not a run that never finishes', async () => {
  const base = memoryStore();
  const first = createAgent({ provider: mockModel(['Hello there.']), store: base });
  await first.session('s').send('hi');

  // Another process reads the record while the leg still runs, then the log after the leg ended
  // (with its run.done), and the checkpoint before the lease was given up: the race a follower met.
  let staleReads = 1;
  const store: CompleteAgentStore = {
    sessions: overriding(base.sessions, {
      get: (id: string) => {
        const record = base.sessions.get(id);
        return record && staleReads-- > 0 ? { ...record, status: 'running' as const } : record;
      },
    }),
    checkpoints: overriding(base.checkpoints, {
      load: (id: string) => {
        const checkpoint = base.checkpoints.load(id);
        return checkpoint && { ...checkpoint, leased: true };
      },
    }),
    approvals: base.approvals,
  };
  const second = createAgent({ provider: mockModel([]), store });
  const state = await second.sessions.load('s');
  expect(state?.status).toBe('idle');
  expect(second.sessions.eventsAfter('s', 0).at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
});
