import { describe, expect, it } from 'vitest';
import { SessionRetention } from '../../src/stores/session-retention.js';

/** A retention over `maxSessions` whose sessions are kept while `running` has them; counts the checks. */
function retention(maxSessions: number) {
  const running = new Set<string>();
  const forgotten: string[] = [];
  let checks = 0;
  const kept = new SessionRetention({
    maxSessions,
    idleTtlMs: Infinity,
    canForget: (id) => (checks++, !running.has(id)),
    forget: (id) => void forgotten.push(id),
  });
  return { kept, running, forgotten, checks: () => checks };
}

describe('SessionRetention past its limit with runs going on', () => {
  it('looks at a few sessions per use, not at every session (each event of 1,000 running sessions cost O(sessions))', () => {
    const { kept, running, checks } = retention(10);
    const ids = Array.from({ length: 1000 }, (_, i) => `s${i}`);
    for (const id of ids) {
      running.add(id);
      kept.touch(id);
    }
    // Every run appends its events in turn: a use of a session that is not the newest.
    const before = checks();
    for (let round = 0; round < 5; round++) for (const id of ids) kept.touch(id);
    expect((checks() - before) / (5 * ids.length)).toBeLessThanOrEqual(8);
    // Nothing that must be kept was forgotten, whatever the limit.
    for (const id of ids) expect(kept.has(id)).toBe(true);
  });

  it('forgets the finished sessions over the limit once their runs end', () => {
    const { kept, running, forgotten } = retention(10);
    expect(forgotten).toEqual([]);
    for (let i = 0; i < 100; i++) {
      running.add(`s${i}`);
      kept.touch(`s${i}`);
    }
    running.clear();
    // A few uses bring the store back to its limit: more are forgotten per use than a use adds.
    for (let i = 0; i < 30; i++) kept.touch(`new${i}`);
    const left = [...Array.from({ length: 100 }, (_, i) => `s${i}`), ...Array.from({ length: 30 }, (_, i) => `new${i}`)].filter((id) => kept.has(id));
    expect(left).toHaveLength(10);
    expect(left).toEqual(Array.from({ length: 10 }, (_, i) => `new${20 + i}`));
  });
});
