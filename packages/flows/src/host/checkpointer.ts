import { SessionLeaseLostError, type CheckpointStore, type FinishReason, type Message, type SerializedError, type PausedBatch, type RunStart, type RunState, type RunUsage, type SpanRef } from '@lousho/core';
import type { NodeRecord } from '../engine/run-state.js';

/**
 * Writes a flow run's checkpoints into the agent stores' checkpoint model: the run is a stored
 * run (`model: 'flow:<name>'`) whose tool-call records are its finished nodes, appended one
 * delta at a time; the transcript holds the input (and the reply). Writes are queued, so they
 * land in the order they were asked for, also with an async store.
 */
export class FlowCheckpointer {
  readonly #store: CheckpointStore;
  readonly #sessionId: string;
  readonly #holder: string;
  /** Written so far: transcript and records. */
  #messages: number;
  #records: number;
  #start: RunStart | undefined;
  #tail: Promise<void> = Promise.resolve();
  #lost = false;
  readonly #onLost: (() => void) | undefined;
  /** With tracing: the span of the run's latest traced leg, kept with every checkpoint (see docs/tracing.md). */
  readonly #traceSpan: SpanRef | undefined;

  /**
   * `stored`: what the store holds (messages and records already written). `start`: the fixed
   * fields of a new run, written with the first checkpoint (none for a run that goes on).
   * `traceSpan`: the span the next leg links to (this leg's, or the one before it kept on).
   */
  constructor(
    store: CheckpointStore,
    sessionId: string,
    holder: string,
    stored: { messages: number; records: number },
    start?: RunStart,
    onLost?: () => void,
    traceSpan?: SpanRef,
  ) {
    this.#onLost = onLost;
    this.#traceSpan = traceSpan;
    this.#store = store;
    this.#sessionId = sessionId;
    this.#holder = holder;
    this.#messages = stored.messages;
    this.#records = stored.records;
    this.#start = start;
  }

  /** True once the store refused a write: another run took the session over. */
  get lost(): boolean {
    return this.#lost;
  }

  /**
   * Writes the messages and records past what is stored, with the run's progress. `notes`: the
   * session log's last `seq` every event before the write is stored under (what of the UI the
   * checkpoint covers, for `run.interrupted`), and how a `done` run ended (its reason, or its error). Resolves once stored;
   * rejects (and writes nothing more) when the lease was lost.
   */
  write(messages: readonly Message[], records: readonly NodeRecord[], state: RunState, usage: RunUsage, paused?: PausedBatch, notes: { seq?: number; finishReason?: FinishReason; error?: SerializedError } = {}): Promise<void> {
    // What is there now is what this write stands for (the lists only grow).
    const messageCount = messages.length;
    const recordCount = records.length;
    const job = this.#tail.then(async () => {
      if (this.#lost) throw new SessionLeaseLostError(this.#sessionId);
      const start = this.#start;
      const appendMessages = messages.slice(this.#messages, Math.max(this.#messages, messageCount));
      const appendRecords = records.slice(this.#records, Math.max(this.#records, recordCount));
      try {
        await this.#store.save(this.#sessionId, {
          holder: this.#holder,
          messages: { keep: this.#messages, append: appendMessages },
          run: {
            ...(start ? { start } : {}),
            progress: { state, steps: Math.max(this.#records, recordCount), usage, ...(paused ? { paused } : {}), ...(this.#traceSpan ? { traceSpan: this.#traceSpan } : {}), ...notes },
            stepUsage: { keep: 0, append: [] },
            toolCalls: { keep: this.#records, append: appendRecords },
          },
        });
      } catch (error) {
        if ((error as { code?: unknown } | null)?.code === 'LOUSHO_SESSION_LEASE_LOST') {
          this.#lost = true;
          this.#onLost?.();
        }
        throw error;
      }
      this.#start = undefined;
      this.#messages += appendMessages.length;
      this.#records += appendRecords.length;
    });
    // The queue goes on after a failure; the failure reaches this write's caller.
    this.#tail = job.catch(() => {});
    return job;
  }
}
