import type { Message, ToolCall } from '@lousho/protocol';
import { SessionLeaseLostError, SessionNotResumableError } from '@lousho/store-kit';
import type { CheckpointStore, CheckpointWrite, ListWrite, MaybePromise, RunProgress, RunState, StoredCheckpoint, StoredRun, ApprovalRecord, ApprovalStore } from '@lousho/protocol';
import { continuationFor, decisionOf } from './approval-resume.js';
import { newId } from './ids.js';
import type { BatchContinuation } from './tool-call.js';
import type { ChildSnapshot, RunSnapshot } from '@lousho/protocol';
import { SessionAwaitingApprovalError, sessionBusyError } from './session-errors.js';
import type { AppendFence } from './session-runtime.js';

function isPromise<T>(value: MaybePromise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** How long a leg waits for the lease of a holder that is ending its leg, and how often it looks. */
const FINISHING_WAIT_MS = 1000;
const FINISHING_POLL_MS = 10;

/** What a leg of a run is for: a new turn (`send`/`stream`/`execute`), `resume()` after a crash, or an approval decision. */
export type LegMode = 'turn' | 'resume' | 'approval';

/** What a checkpoint records besides the run's state: where it stands in the session's log, and how a `done` run ended. */
export type CheckpointNotes = Pick<RunProgress, 'seq' | 'finishReason' | 'error'>;

/** How the leg starts, decided from the stored checkpoint. */
export type LegOpening =
  /** A new run on the stored transcript (`undefined`: nothing stored yet). */
  | { kind: 'fresh'; history: Message[] | undefined }
  /** The stored run was interrupted: go on from its checkpoint. */
  | { kind: 'recover'; snapshot: RunSnapshot; continuation: BatchContinuation };

/**
 * Writes a run's checkpoints as deltas: the messages, step usages and tool-call records appended
 * since the previous write, and the few fields that change. Old messages are compared by identity
 * (the loop freezes and never copies them), so a message edited in place (e.g. pruned) is noticed
 * and rewritten from there on.
 */
export class Checkpointer {
  readonly #store: CheckpointStore;
  readonly #sessionId: string;
  readonly #holder: string;
  #messages: Message[] = [];
  #stepUsage = 0;
  #toolCalls = 0;
  #runWritten = false;
  #stored: StoredCheckpoint | undefined;

  constructor(store: CheckpointStore, sessionId: string, holder: string, stored: StoredCheckpoint | undefined) {
    this.#store = store;
    this.#sessionId = sessionId;
    this.#holder = holder;
    this.#stored = stored;
  }

  /** Lines the delta tracking up with what is stored, for the snapshot this leg continues. */
  adopt(snapshot: RunSnapshot): void {
    const stored = this.#stored;
    this.#stored = undefined;
    this.#messages = [];
    if (!stored) return;
    const limit = Math.min(stored.messages.length, snapshot.messages.length);
    for (let i = 0; i < limit; i++) {
      const a = stored.messages[i]!;
      const b = snapshot.messages[i]!;
      if (a !== b && JSON.stringify(a) !== JSON.stringify(b)) break;
      this.#messages.push(b);
    }
    const run: StoredRun | undefined = stored.run;
    this.#runWritten = run !== undefined && run.runId === snapshot.runId;
    this.#stepUsage = this.#runWritten ? Math.min(run!.stepUsage.length, snapshot.stepUsage.length) : 0;
    this.#toolCalls = this.#runWritten ? Math.min(run!.toolCalls.length, snapshot.toolCalls.length) : 0;
  }

  save(snapshot: RunSnapshot, state: RunState, notes: CheckpointNotes = {}): MaybePromise<void> {
    const messages = snapshot.messages;
    const known = this.#messages;
    let keep = Math.min(known.length, messages.length);
    for (let i = 0; i < keep; i++) {
      if (known[i] !== messages[i]) {
        keep = i;
        break;
      }
    }
    const appendMessages = messages.slice(keep);
    const stepUsage = listWrite(snapshot.stepUsage, this.#runWritten ? this.#stepUsage : 0);
    const toolCalls = listWrite(snapshot.toolCalls, this.#runWritten ? this.#toolCalls : 0);
    const write: CheckpointWrite = {
      holder: this.#holder,
      messages: { keep, append: appendMessages },
      run: {
        ...(this.#runWritten
          ? {}
          : { start: { runId: snapshot.runId, model: snapshot.model, configContext: snapshot.configContext, runStart: snapshot.runStart } }),
        progress: {
          state,
          steps: snapshot.steps,
          usage: snapshot.usage,
          ...(snapshot.repairUsed ? { repairUsed: true } : {}),
          ...(snapshot.traceSpan ? { traceSpan: snapshot.traceSpan } : {}),
          ...(snapshot.pendingInput?.length ? { pendingInput: snapshot.pendingInput } : {}),
          ...(snapshot.budgetFrom ? { budgetFrom: snapshot.budgetFrom } : {}),
          ...(state === 'paused' && snapshot.paused ? { paused: snapshot.paused } : {}),
          ...(snapshot.children && state !== 'done' ? { children: copyChildren(snapshot.children) } : {}),
          ...notes,
        },
        stepUsage,
        toolCalls,
      },
    };
    const commit = (): void => {
      known.length = keep;
      for (const m of appendMessages) known.push(m);
      this.#stepUsage = snapshot.stepUsage.length;
      this.#toolCalls = snapshot.toolCalls.length;
      this.#runWritten = true;
    };
    const answer = this.#store.save(this.#sessionId, write);
    if (isPromise(answer)) return answer.then(commit);
    commit();
  }
}

function listWrite<T>(list: readonly T[], written: number): ListWrite<T> {
  const keep = Math.min(written, list.length);
  return { keep, append: list.slice(keep) };
}

/**
 * One leg of a run under a session's lease: takes the lease, decides from the checkpoint how the
 * leg starts, keeps the lease alive while the leg runs, writes the checkpoints and lets go.
 */
export class DurableLeg {
  readonly sessionId: string;
  readonly holder = newId('lease');
  readonly #store: CheckpointStore;
  readonly #approvals: ApprovalStore;
  #checkpointer: Checkpointer | undefined;
  #stored: StoredCheckpoint | undefined;
  #held = false;
  #lost = false;
  #failure: { error: unknown } | undefined;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(store: CheckpointStore, approvals: ApprovalStore, sessionId: string) {
    this.#store = store;
    this.#approvals = approvals;
    this.sessionId = sessionId;
  }

  get held(): boolean {
    return this.#held;
  }

  /** The checkpoint as the leg found it when it took the lease (with a pause `finishPause` wrote). */
  get stored(): StoredCheckpoint | undefined {
    return this.#stored;
  }

  /**
   * Takes the lease (or throws `LOUSHO_SESSION_BUSY`). `force` takes it over from a crashed holder.
   * A holder whose run has ended (its checkpoint says `done` or `paused`) is storing its last
   * events and lets go in a moment: that is waited for, up to `FINISHING_WAIT_MS`.
   */
  async acquire(force = false): Promise<StoredCheckpoint | undefined> {
    if (this.#held) return this.#stored;
    const options = force ? { force: true } : undefined;
    let lease = await this.#store.acquire(this.sessionId, this.holder, options);
    for (let waited = 0; !lease.acquired && waited < FINISHING_WAIT_MS; waited += FINISHING_POLL_MS) {
      const state = (await this.#store.load(this.sessionId))?.run?.state;
      if (state !== 'done' && state !== 'paused') break;
      await new Promise((resolve) => setTimeout(resolve, FINISHING_POLL_MS));
      lease = await this.#store.acquire(this.sessionId, this.holder, options);
    }
    if (!lease.acquired) throw sessionBusyError(this.sessionId, true);
    this.#held = true;
    this.#stored = lease.checkpoint;
    this.#checkpointer = new Checkpointer(this.#store, this.sessionId, this.holder, lease.checkpoint);
    const every = Math.max(10, Math.floor(this.#store.leaseMs / 3));
    this.#heartbeat = setInterval(() => void this.#renew(), every);
    (this.#heartbeat as { unref?: () => void }).unref?.();
    return lease.checkpoint;
  }

  async #renew(): Promise<void> {
    try {
      if (!(await this.#store.renew(this.sessionId, this.holder))) this.#lost = true;
    } catch {
      // A failed renewal is retried at the next beat; a write after expiry is refused anyway.
    }
  }

  /**
   * Decides how a `turn` or `resume` leg starts: a fresh run on the stored transcript, or the
   * interrupted run recovered. Throws while an approval is pending, and for `resume` when nothing
   * was interrupted. Must be called after `acquire()`.
   */
  async open(mode: Exclude<LegMode, 'approval'>): Promise<LegOpening> {
    const stored = this.#stored;
    const run = stored?.run;
    if (run?.state === 'paused') {
      const decided = await this.#decidedApproval(run);
      if (decided) return { kind: 'recover', snapshot: decided.snapshot, continuation: decided.continuation };
      throw new SessionAwaitingApprovalError(this.sessionId, run.paused?.approval.approvalId ?? '');
    }
    if (run?.state === 'running') {
      const snapshot = snapshotOf(this.sessionId, stored!, run);
      return { kind: 'recover', snapshot, continuation: { recovered: true, ...(interruptedBatch(snapshot) ?? {}) } };
    }
    if (mode === 'resume') throw new SessionNotResumableError(this.sessionId, run ? 'its latest run has finished' : 'it has no checkpoint');
    return { kind: 'fresh', history: stored?.messages };
  }

  /**
   * A pause stored in the approval store whose checkpoint was not written yet (the process died in
   * between): finishes writing it, `seq` being the session log's last seq. Must be called after
   * `acquire()`; `stored` then shows the paused run.
   */
  async finishPause(seq: number): Promise<void> {
    const stored = this.#stored;
    const run = stored?.run;
    if (run?.state !== 'running') return;
    const pending = (await this.#approvals.list({ sessionId: this.sessionId, status: 'pending' })).find((r) => r.runId === run.runId);
    if (!pending) return;
    const snapshot = pending.snapshot;
    this.checkpointer.adopt(snapshot);
    await this.checkpointer.save(snapshot, 'paused', { seq });
    this.#stored = {
      ...stored!,
      messages: snapshot.messages.slice(),
      run: { ...run, state: 'paused', steps: snapshot.steps, usage: snapshot.usage, stepUsage: snapshot.stepUsage.slice(), toolCalls: snapshot.toolCalls.slice(), ...(snapshot.paused ? { paused: snapshot.paused } : {}), seq },
    };
  }

  /** A paused run whose approval was decided, but whose continuation never got to write: go on with that decision. */
  async #decidedApproval(run: StoredRun): Promise<{ snapshot: RunSnapshot; continuation: BatchContinuation } | undefined> {
    const approvalId = run.paused?.approval.approvalId;
    if (!approvalId) return undefined;
    const record: ApprovalRecord | undefined = await this.#approvals.get(approvalId);
    if (!record) return undefined;
    if (record.status === 'resolving' && !record.decision) {
      // Claimed by a process that died before recording the decision: it is pending again.
      await this.#approvals.release(approvalId);
      return undefined;
    }
    if (record.status === 'pending' || !record.decision) return undefined;
    const decision = decisionOf(record as Parameters<typeof decisionOf>[0]);
    return { snapshot: structuredClone(record.snapshot), continuation: { ...continuationFor(record, decision), recovered: true } };
  }

  get checkpointer(): Checkpointer {
    if (!this.#checkpointer) throw new Error('DurableLeg: acquire() first');
    return this.#checkpointer;
  }

  /** True once this leg learned that another run took the session over (a refused write or renewal). */
  get lost(): boolean {
    return this.#lost;
  }

  /**
   * Set by whoever drives the leg: called once when the store failed one of its writes (not a lost
   * lease), so the leg stops at once instead of working on what it can no longer record.
   */
  onFailure: ((error: unknown) => void) | undefined;

  /**
   * The store's first failure on this leg (an event append or a checkpoint that failed for another
   * reason than a lost lease). From then on the leg writes nothing: it was interrupted, and its last
   * checkpoint is where a resumed run goes on from.
   */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  #noteFailure(error: unknown): void {
    if (this.#failure) return;
    this.#failure = { error };
    this.onFailure?.(error);
  }

  /** The writer of this leg's events: appended under its lease, and it learns what the store refused. */
  readonly fence: AppendFence = {
    holder: this.holder,
    onLost: () => void (this.#lost = true),
    onFailed: (error) => this.#noteFailure(error),
  };

  save(snapshot: RunSnapshot, state: RunState, notes?: CheckpointNotes): MaybePromise<void> {
    if (this.#lost) throw new SessionLeaseLostError(this.sessionId);
    if (this.#failure) throw this.#failure.error;
    const noteLoss = (error: unknown): never => {
      if (error instanceof SessionLeaseLostError || (error as { code?: unknown })?.code === 'LOUSHO_SESSION_LEASE_LOST') this.#lost = true;
      else this.#noteFailure(error);
      throw error;
    };
    let answer: MaybePromise<void>;
    try {
      answer = this.checkpointer.save(snapshot, state, notes);
    } catch (error) {
      return noteLoss(error);
    }
    return isPromise(answer) ? answer.catch(noteLoss) : answer;
  }

  /** Stops the heartbeat and gives the lease up. Never throws: the lease runs out by itself otherwise. */
  async release(): Promise<void> {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    if (!this.#held) return;
    this.#held = false;
    try {
      await this.#store.release(this.sessionId, this.holder);
    } catch {
      // Expiry frees it.
    }
  }
}

/** Rebuilds the run's snapshot from its checkpoint. */
export function snapshotOf(sessionId: string, stored: StoredCheckpoint, run: StoredRun): RunSnapshot {
  return {
    runId: run.runId,
    sessionId,
    model: run.model,
    configContext: run.configContext,
    messages: stored.messages.slice(),
    runStart: run.runStart,
    steps: run.steps,
    usage: run.usage,
    stepUsage: run.stepUsage.slice(),
    toolCalls: run.toolCalls.slice(),
    ...(run.repairUsed ? { repairUsed: true } : {}),
    ...(run.children ? { children: copyChildren(run.children) } : {}),
    ...(run.traceSpan ? { traceSpan: run.traceSpan } : {}),
    ...(run.pendingInput?.length ? { pendingInput: run.pendingInput.slice() } : {}),
    ...(run.budgetFrom ? { budgetFrom: run.budgetFrom } : {}),
  };
}

/**
 * A copy of the sub-agents' states as they are now: they go on changing after the write, and a
 * store may keep what it is given by reference. Messages are frozen, so their lists are enough.
 */
export function copyChildren(children: Record<string, ChildSnapshot>): Record<string, ChildSnapshot> {
  const out: Record<string, ChildSnapshot> = {};
  for (const [id, child] of Object.entries(children)) {
    out[id] = {
      ...child,
      messages: child.messages.slice(),
      stepUsage: child.stepUsage.slice(),
      toolCalls: child.toolCalls.slice(),
      ...(child.children ? { children: copyChildren(child.children) } : {}),
    };
  }
  return out;
}

/**
 * The tool calls of the last model turn that have no result yet (results are stored in call order,
 * so they are a suffix of the turn's calls): what a recovered run runs before anything else.
 */
export function interruptedBatch(snapshot: RunSnapshot): { batch: { calls: ToolCall[]; index: number; step: number } } | undefined {
  const messages = snapshot.messages;
  let turn = -1;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') {
      turn = i;
      break;
    }
    if (m.role !== 'tool') return undefined;
  }
  const calls = turn >= 0 ? messages[turn]!.toolCalls : undefined;
  if (!calls || calls.length === 0) return undefined;
  let done = 0;
  while (done < calls.length && messages[turn + 1 + done]?.role === 'tool' && messages[turn + 1 + done]!.toolCallId === calls[done]!.id) done++;
  if (done === calls.length) return undefined;
  return { batch: { calls: calls.slice(), index: done, step: snapshot.steps } };
}
