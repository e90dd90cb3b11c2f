import type { UnsequencedStreamEvent } from '../contracts/events.js';

/**
 * The last event of a run leg (a run, or its continuation after an approval) in the log: `run.done`
 * or `error`, or `run.interrupted` for a leg whose process stopped before it could end it.
 */
export function endsLeg(event: UnsequencedStreamEvent): boolean {
  return event.type === 'run.done' || event.type === 'error' || event.type === 'run.interrupted';
}
