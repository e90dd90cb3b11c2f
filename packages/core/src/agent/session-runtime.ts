import type { AgentStreamEvent, PendingApprovalInfo, UnsequencedStreamEvent } from '../events/types.js';
import type { Message } from '../messages.js';
import type { RunUsage } from '../usage/types.js';

export type SessionStatus = 'idle' | 'running' | 'awaiting-approval';

export type SessionListener = (event: AgentStreamEvent) => void;

/**
 * One conversation in this process: its transcript, its status and its numbered event log.
 * Events get a per-session sequence number here, so every consumer (a stream, the HTTP handler,
 * an in-process UI client) sees the same numbers and can resume without gaps or duplicates.
 */
export class SessionRuntime {
  readonly id: string;
  messages: Message[] = [];
  status: SessionStatus = 'idle';
  pendingApproval: PendingApprovalInfo | null = null;
  lastUsage: RunUsage | undefined;
  /** The controller of the running turn, so `stop()` can reach it from anywhere. */
  abortController: AbortController | undefined;
  #seq = 0;
  /** Events since the start of the latest run: enough to replay a stream a client lost. */
  #log: AgentStreamEvent[] = [];
  readonly #listeners = new Set<SessionListener>();

  constructor(id: string) {
    this.id = id;
  }

  get lastSeq(): number {
    return this.#seq;
  }

  /** Numbers an event, records it and hands it to every listener. */
  emit(runId: string, event: UnsequencedStreamEvent): AgentStreamEvent {
    if (event.type === 'run.start' && !('continuation' in event && event.continuation)) this.#log = [];
    const numbered = { ...event, seq: ++this.#seq, runId, sessionId: this.id } as AgentStreamEvent;
    this.#log.push(numbered);
    for (const listener of this.#listeners) {
      try {
        listener(numbered);
      } catch {
        // A listener's failure must not break the run or the other listeners.
      }
    }
    return numbered;
  }

  /** Events with `seq > afterSeq` still in the log (the log starts at the latest run). */
  eventsAfter(afterSeq: number): AgentStreamEvent[] {
    const log = this.#log;
    // The log is ordered by seq: find the first index past afterSeq.
    let lo = 0;
    let hi = log.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (log[mid]!.seq <= afterSeq) lo = mid + 1;
      else hi = mid;
    }
    return log.slice(lo);
  }

  /** The seq of the first event still replayable, or `lastSeq + 1` when the log is empty. */
  get firstReplayableSeq(): number {
    return this.#log[0]?.seq ?? this.#seq + 1;
  }

  subscribe(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
