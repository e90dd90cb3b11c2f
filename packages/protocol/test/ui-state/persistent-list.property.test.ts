import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIST_WINDOW, PersistentList } from '../../src/ui-state/persistent-list.js';

/** One step on some earlier version: append, or replace an element (any index, near the end or not). */
type Step = { from: number; op: 'push'; value: number } | { from: number; op: 'set'; index: number; value: number };

const arbStep: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ from: fc.nat(), op: fc.constant('push' as const), value: fc.integer() }),
  fc.record({ from: fc.nat(), op: fc.constant('set' as const), index: fc.nat(), value: fc.integer() }),
);

describe('PersistentList (properties)', () => {
  it('every version, old or new, reads like the plain array it stands for, however versions branch', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 3 * LIST_WINDOW }), fc.array(arbStep, { maxLength: 60 }), (start, steps) => {
        // Each version next to the array it must equal; steps start from random earlier versions,
        // so the shared buffer is appended to by one branch while another still reads it.
        const versions: { list: PersistentList<number>; model: number[] }[] = [{ list: PersistentList.from(start), model: [...start] }];
        for (const step of steps) {
          const { list, model } = versions[step.from % versions.length]!;
          if (step.op === 'push') versions.push({ list: list.push(step.value), model: [...model, step.value] });
          else if (model.length > 0) {
            const index = step.index % model.length;
            const next = [...model];
            next[index] = step.value;
            versions.push({ list: list.set(index, step.value), model: next });
          }
        }
        for (const { list, model } of versions) {
          expect(list.length).toBe(model.length);
          expect([...list.toArray()]).toEqual(model);
          for (let i = 0; i < model.length; i++) expect(list.at(i)).toBe(model[i]);
          expect(list.toArray()).toBe(list.toArray()); // built once, then the same array
        }
      }),
      { numRuns: 500 },
    );
  });

  it('an empty list never shares its buffer: two lists grown from it stay apart', () => {
    const empty = PersistentList.from<number>([]);
    let a = empty;
    let b = empty;
    for (let i = 0; i < 3 * LIST_WINDOW; i++) a = a.push(i);
    for (let i = 0; i < 3 * LIST_WINDOW; i++) b = b.push(-i);
    expect(a.toArray()).toEqual(Array.from({ length: 3 * LIST_WINDOW }, (_, i) => i));
    expect(b.toArray()).toEqual(Array.from({ length: 3 * LIST_WINDOW }, (_, i) => -i));
    expect(empty.length).toBe(0);
  });
});
