import { describe, expectTypeOf, it } from 'vitest';
import type { AgentStreamEvent } from '../../src/events/types.js';

type Type = AgentStreamEvent['type'];
/** The types `STEP_SCOPED` (`/^(st|te|re)/`) matches: their `step` is said only when it changes. */
type StepScoped = Extract<Type, `st${string}` | `te${string}` | `re${string}`>;
type WithStep = Extract<AgentStreamEvent, { step: number }>['type'];
/** The types `CALL_SCOPED` (`/^to/`) matches: their `toolCallId` is said only when it changes. */
type CallScoped = Extract<Type, `to${string}`>;
type WithCall = Extract<AgentStreamEvent, { toolCallId: string }>['type'];

describe('lousho.v2 fields said once per stream', () => {
  it('every event type the step test matches has a step (a reader restores one for it; a new type that starts with st, te or re and has no step must change the test first)', () => {
    expectTypeOf<Exclude<StepScoped, WithStep>>().toEqualTypeOf<never>();
    // The ones it covers today.
    expectTypeOf<StepScoped>().toEqualTypeOf<'step.start' | 'step.done' | 'text.delta' | 'reasoning.delta'>();
  });

  it('every event type the call test matches has a toolCallId (a reader restores one for it; a new type that starts with to and has no toolCallId must change the test first)', () => {
    expectTypeOf<Exclude<CallScoped, WithCall>>().toEqualTypeOf<never>();
    expectTypeOf<CallScoped>().toEqualTypeOf<'tool.input.start' | 'tool.input.delta' | 'tool.call' | 'tool.progress' | 'tool.done' | 'tool.error'>();
  });
});
