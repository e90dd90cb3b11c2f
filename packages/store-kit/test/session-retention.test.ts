import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SessionRetention } from '../src/session-retention.js';

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
    for (let i = 0; i < 100; i++) {
      running.add(`s${i}`);
      kept.touch(`s${i}`);
    }
    // While their runs go on, none of them is forgotten.
    expect(forgotten).toEqual([]);
    running.clear();
    // A few uses bring the store back to its limit: more are forgotten per use than a use adds.
    for (let i = 0; i < 30; i++) kept.touch(`new${i}`);
    const left = [...Array.from({ length: 100 }, (_, i) => `s${i}`), ...Array.from({ length: 30 }, (_, i) => `new${i}`)].filter((id) => kept.has(id));
    expect(left).toHaveLength(10);
    expect(left).toEqual(Array.from({ length: 10 }, (_, i) => `new${20 + i}`));
  });
});

describe('SessionRetention against a plain model', () => {
  it('keeps and forgets what an array in order of use would, for any uses, runs and clock', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('touch' as const), id: fc.integer({ min: 0, max: 12 }), advance: fc.integer({ min: 0, max: 40 }) }),
      fc.record({ kind: fc.constant('run' as const), id: fc.integer({ min: 0, max: 12 }) }),
      fc.record({ kind: fc.constant('end' as const), id: fc.integer({ min: 0, max: 12 }) }),
      fc.record({ kind: fc.constant('sweep' as const), advance: fc.integer({ min: 0, max: 40 }) }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.boolean(), fc.array(op, { maxLength: 120 }), (maxSessions, withTtl, ops) => {
        let clock = 1000;
        const ttl = withTtl ? 50 : Infinity;
        const running = new Set<string>();
        const forgotten: string[] = [];
        // The model: [id, last use] from the least to the most recently used.
        const model: [string, number][] = [];
        const modelForgotten: string[] = [];
        const keepOrForget = (i: number, now: number): void => {
          const [entry] = model.splice(i, 1);
          if (running.has(entry![0])) model.push([entry![0], now]);
          else modelForgotten.push(entry![0]);
        };
        const expire = (now: number): void => {
          if (ttl === Infinity) return;
          for (let budget = model.length; budget > 0 && model.length > 0 && now - model[0]![1] >= ttl; budget--) keepOrForget(0, now);
        };
        const kept = new SessionRetention({ maxSessions, idleTtlMs: ttl, canForget: (id) => !running.has(id), forget: (id) => void forgotten.push(id) });
        const realNow = Date.now;
        Date.now = () => clock;
        try {
          for (const step of ops) {
            if (step.kind === 'run') running.add(`s${step.id}`);
            else if (step.kind === 'end') running.delete(`s${step.id}`);
            else {
              clock += step.advance;
              const now = ttl === Infinity ? 0 : clock;
              if (step.kind === 'sweep') {
                kept.sweep();
                expire(now);
              } else {
                const id = `s${step.id}`;
                kept.touch(id);
                expire(now);
                const at = model.findIndex(([other]) => other === id);
                if (at >= 0) model.splice(at, 1);
                model.push([id, now]);
                if (at < 0) for (let budget = 8; budget > 0 && model.length > maxSessions; budget--) keepOrForget(0, now);
              }
            }
            expect(forgotten).toEqual(modelForgotten);
            for (let i = 0; i <= 12; i++) expect(kept.has(`s${i}`)).toBe(model.some(([id]) => id === `s${i}`));
          }
        } finally {
          Date.now = realNow;
        }
      }),
      { numRuns: 400 },
    );
  });
});
