import type { AgentStreamEvent } from '../contracts/events.js';

/** Where a run's events can be handed one by one, synchronously (`EventFeed` is one). */
export interface EventSink {
  /** Takes one event of the run. */
  push(event: AgentStreamEvent): void;
  /** The run ended (after its last event). */
  end(): void;
  /** The run failed before it started, or its stream failed (after the events before that). */
  fail(error: unknown): void;
  /** True once the sink's reader went away: nothing more is handed to it. */
  readonly closed: boolean;
}

/**
 * The key of an internal method of a run from `driveRun` (a run from `agent.stream()`): hands its
 * events to an `EventSink` as they are emitted, instead of one `for await` step (a promise) per
 * event. `startRun` (protocol/event-feed.ts) uses it when a run has it. Not public API.
 */
export const PIPE_EVENTS: unique symbol = Symbol('lousho.pipeEvents');

/** A run that can pipe its events (see `PIPE_EVENTS`). */
export interface PipeableRun {
  /** Hands the run's events to `sink` as they come, without an async iterator in between (set by runs that can). */
  [PIPE_EVENTS]?: (sink: EventSink) => void;
}
