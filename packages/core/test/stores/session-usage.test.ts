import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tallyUsage, usageOfTally } from '@lousho/store-kit';
import type { EventToAppend } from '@lousho/protocol';

const done = (runId: string, input: number, output: number, cost?: number): EventToAppend =>
  ({
    runId,
    event: { type: 'run.done', finishReason: 'stop', steps: 1, usage: { inputTokens: input, outputTokens: output, totalTokens: input + output, ...(cost !== undefined ? { costUsd: cost } : {}), estimated: false, modelCalls: 1, byModel: {}, promptTokens: input, completionTokens: output } },
  }) as EventToAppend;

/** A run: its legs' additions (a continuation's `run.done` carries the run's running total), priced or not. */
const run = fc.record({ legs: fc.array(fc.record({ input: fc.nat(1000), output: fc.nat(1000) }), { minLength: 1, maxLength: 4 }), priced: fc.boolean() });

describe('a session\'s usage tally', () => {
  it('counts each run once (its last leg\'s running total), however the events are split into appends', () => {
    fc.assert(
      fc.property(fc.array(run, { maxLength: 6 }), fc.array(fc.nat(3), { maxLength: 30 }), (runs, cuts) => {
        const events: EventToAppend[] = [];
        let input = 0;
        let output = 0;
        let cost: number | undefined = runs.length ? 0 : undefined;
        runs.forEach((r, i) => {
          let ri = 0;
          let ro = 0;
          for (const leg of r.legs) {
            ri += leg.input;
            ro += leg.output;
            events.push({ runId: 'x', event: { type: 'user.message', message: { role: 'user', content: 'hi' } } } as EventToAppend);
            events.push(done(`r${i}`, ri, ro, r.priced ? (ri + ro) / 1000 : undefined));
          }
          input += ri;
          output += ro;
          cost = cost !== undefined && r.priced ? cost + (ri + ro) / 1000 : undefined;
        });
        // Appended in batches of arbitrary sizes.
        let tally;
        let at = 0;
        for (const cut of cuts) {
          tally = tallyUsage(tally, events.slice(at, at + cut));
          at += cut;
        }
        tally = tallyUsage(tally, events.slice(at));
        const usage = usageOfTally(tally);
        if (!runs.length) {
          expect(usage).toBeUndefined();
          return;
        }
        expect(usage).toMatchObject({ inputTokens: input, outputTokens: output, totalTokens: input + output });
        if (cost === undefined) expect(usage!.costUsd).toBeUndefined();
        else expect(usage!.costUsd).toBeCloseTo(cost, 6);
      }),
    );
  });

  it('returns the same tally when the events change nothing (a store then writes nothing)', () => {
    const tally = tallyUsage(undefined, [done('r1', 1, 2)]);
    expect(tallyUsage(tally, [{ runId: 'r1', event: { type: 'run.start', model: 'm' } }])).toBe(tally);
    expect(tallyUsage(undefined, [])).toBeUndefined();
  });
});
