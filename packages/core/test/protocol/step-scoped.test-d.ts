import { describe, expectTypeOf, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/events/types.js';

type Type = AgentStreamEvent['type'];
/** The types `STEP_SCOPED` (`/^(st|te|re)/`) matches: their `step` is said only when it changes. */
type Scoped = Extract<Type, `st${string}` | `te${string}` | `re${string}`>;
type WithStep = Extract<AgentStreamEvent, { step: number }>['type'];

describe('lousho.v2 step scoping', () => {
  it('every event type the step test matches has a step (a reader restores one for it; a new type that starts with st, te or re and has no step must change the test first)', () => {
    expectTypeOf<Exclude<Scoped, WithStep>>().toEqualTypeOf<never>();
    // The ones it covers today.
    expectTypeOf<Scoped>().toEqualTypeOf<'step.start' | 'step.done' | 'text.delta' | 'reasoning.delta'>();
  });
});
