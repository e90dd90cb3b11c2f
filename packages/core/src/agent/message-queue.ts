import type { AgentStreamEvent, FinishReason, SendMode } from '@lousho/protocol';
import type { ContentPart, Message } from '@lousho/protocol';
import type { QueuedMessage } from '@lousho/protocol';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { sessionNotFoundError } from '@lousho/store-kit';
import { newId } from './ids.js';
import { sessionBusyError } from './session-errors.js';
import type { SessionRegistry } from './session-registry.js';
import type { SessionRuntime } from './session-runtime.js';

// Messages sent while a turn runs (docs/protocol.md, "Queued messages and steering"). The queue
// is kept in the session's event log (`message.queued` / `message.unqueued`), so every store keeps
// it, a reload or a restart reads it back, and every client following the session sees it.

/** What the queue needs of the agent's runs: a turn started now (throws when it cannot start). */
export type StartQueuedTurn = (sessionId: string, input: string | ContentPart[], metadata: Record<string, unknown> | undefined) => { runId: string; result: Promise<unknown>; done: Promise<void> };

/** The log read so far, per session: appends are read once; a replaced log (compaction, a reload) is read again. */
const READ = new WeakMap<SessionRuntime, { log: readonly AgentStreamEvent[]; index: number; items: QueuedMessage[] }>();
/** Items this process took (sent, steered, removed) whose `message.unqueued` may not be logged yet. */
const TAKEN = new WeakMap<SessionRuntime, Set<string>>();

/** The messages waiting in a session's queue, oldest first. */
export function queuedIn(session: SessionRuntime): QueuedMessage[] {
  const log = session.log;
  let read = READ.get(session);
  if (!read || read.log !== log) READ.set(session, (read = { log, index: 0, items: [] }));
  for (; read.index < log.length; read.index++) {
    const event = log[read.index]!;
    if (event.type === 'message.queued') {
      const { queueId, mode, message, metadata } = event;
      read.items = [...read.items, { queueId, mode, message, ...(metadata ? { metadata } : {}) }];
    } else if (event.type === 'message.unqueued') read.items = read.items.filter((item) => item.queueId !== event.queueId);
  }
  const taken = TAKEN.get(session);
  return taken ? read.items.filter((item) => !taken.has(item.queueId)) : read.items;
}

function take(session: SessionRuntime, queueId: string): void {
  let taken = TAKEN.get(session);
  if (!taken) TAKEN.set(session, (taken = new Set()));
  taken.add(queueId);
}

/** The run id queue events carry: the session's latest run (they belong to no run of their own). */
const runIdOf = (session: SessionRuntime): string => session.log.at(-1)?.runId ?? 'queue';

function invalid(message: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, message, { hint: 'Send { input: "text" | ContentPart[], mode?: "queue" | "steer" }.' });
}

/** The user message a queued input becomes; only user content (a string, or content parts). */
function userMessage(input: unknown): Message {
  if (typeof input === 'string' && input.trim() !== '') return { role: 'user', content: input };
  if (Array.isArray(input) && input.length > 0 && input.every((part) => typeof part?.type === 'string' && !('role' in part))) return { role: 'user', content: input as ContentPart[] };
  throw invalid('A queued message is a non-empty string or a non-empty array of content parts.');
}

/** `agent.sessions.enqueue / unqueue / queued`, steering at step boundaries, and the next turn once one ends. */
export class MessageQueue {
  constructor(
    private readonly registry: SessionRegistry,
    private readonly startTurn: StartQueuedTurn,
  ) {}

  async enqueue(id: string, input: string | ContentPart[], options: { mode?: SendMode | 'turn'; owner?: string; metadata?: Record<string, unknown> } = {}): Promise<QueuedMessage> {
    const { mode = 'queue', owner, metadata } = options;
    if (mode !== 'queue' && mode !== 'steer' && mode !== 'turn') throw invalid(`Unknown send mode '${String(mode).slice(0, 40)}': use 'queue', 'steer' or 'turn'.`);
    const message = userMessage(input);
    const session = await this.#owned(id, owner);
    // `turn`: a turn now or nothing (the way before queues): refused while one runs.
    if (mode === 'turn' && (session.active || session.status === 'running')) throw sessionBusyError(id);
    const item: QueuedMessage = { queueId: newId('q'), mode: mode === 'steer' ? 'steer' : 'queue', message, ...(metadata ? { metadata } : {}) };
    session.emit(runIdOf(session), { type: 'message.queued', ...item });
    await session.settled();
    // No turn runs (it ended while this was on its way): the message is the next turn, now.
    this.#startNextIfIdle(session);
    return item;
  }

  async unqueue(id: string, queueId: string, options: { owner?: string } = {}): Promise<void> {
    const session = await this.#owned(id, options.owner);
    if (!queuedIn(session).some((item) => item.queueId === queueId)) {
      throw new SDKError(ERROR_CODES.LOUSHO_QUEUED_MESSAGE_NOT_FOUND, `No queued message '${String(queueId).slice(0, 200)}' in session '${id.slice(0, 200)}'.`, {
        hint: 'It was sent, steered into the turn or removed already: read the session again.',
      });
    }
    take(session, queueId);
    session.emit(runIdOf(session), { type: 'message.unqueued', queueId, reason: 'removed' });
    await session.settled();
  }

  /** The waiting messages of a session this process knows (empty for an unknown one). */
  queued(id: string): QueuedMessage[] {
    const session = this.registry.sessions.get(id);
    return session ? queuedIn(session) : [];
  }

  /** At a step boundary of a running turn: the steering messages waiting, taken out of the queue (the loop logs them). */
  takeSteered(session: SessionRuntime): QueuedMessage[] {
    const steered = queuedIn(session).filter((item) => item.mode === 'steer');
    for (const item of steered) take(session, item.queueId);
    return steered;
  }

  /**
   * A leg ended (its lease released, its end not yet handed to this process's listeners): unless
   * it paused for a person or was stopped, the oldest waiting message starts the next turn, so a
   * client that follows the session goes on into it. (A steering message the turn ended before
   * taking in runs the same way.)
   */
  afterLeg(session: SessionRuntime, finishReason: FinishReason | undefined): void {
    if (finishReason === undefined || finishReason === 'awaiting-approval' || finishReason === 'aborted') return;
    this.#startNext(session);
  }

  #startNextIfIdle(session: SessionRuntime): void {
    if (!session.active && session.status !== 'running' && session.status !== 'awaiting-approval') this.#startNext(session);
  }

  #startNext(session: SessionRuntime): void {
    const next = queuedIn(session)[0];
    if (!next) return;
    let run: ReturnType<StartQueuedTurn>;
    try {
      run = this.startTurn(session.id, next.message.content, next.metadata);
    } catch {
      // Refused (busy, awaiting an approval): it waits for the next leg's end.
      return;
    }
    take(session, next.queueId);
    // Logged before the turn's `run.start` (emitted once the leg has its lease and config).
    session.emit(run.runId, { type: 'message.unqueued', queueId: next.queueId, reason: 'sent' });
    void run.done;
    run.result.catch(() => {
      // Refused before it started (another process holds the session): back in the queue.
      if (!session.log.some((event) => event.runId === run.runId && event.type === 'run.start')) {
        TAKEN.get(session)?.delete(next.queueId);
        session.emit(run.runId, { type: 'message.queued', ...next });
      }
    });
  }

  async #owned(id: string, owner: string | undefined): Promise<SessionRuntime> {
    const state = typeof id === 'string' && id !== '' ? await this.registry.load(id) : undefined;
    if (!state || (owner !== undefined && state.owner !== owner)) throw sessionNotFoundError(String(id));
    return this.registry.sessionFor(id);
  }
}
