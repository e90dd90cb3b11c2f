import {
  ERROR_CODES,
  EventQueue,
  SDKError,
  SessionAwaitingApprovalError,
  SessionLeaseLostError,
  SessionNotResumableError,
  SessionRuntime,
  UsageTracker,
  emptyUsage,
  endInterruptedLeg,
  lastLegOpen,
  memoryStore,
  serializeError,
  validateToolSchema,
  summarizeIssues,
  formatIssuePath,
  type ToolValidationIssue,
  type AgentInput,
  type AgentStore,
  type AgentStreamEvent,
  type ApprovalRecord,
  type ApprovalRequest,
  type ApprovalStore,
  type CheckpointStore,
  type ContentPart,
  type Message,
  type PendingApprovalInfo,
  type RunStart,
  type SessionState,
  type SessionStatus,
  type SessionStore,
  type SpanRef,
  type StoredCheckpoint,
  type TraceExporter,
  type TraceParent,
  type TraceSpan,
  type UnsequencedStreamEvent,
} from '@lousho/core';
import { approvalIdOf, runLeg, type ApprovalGate, type FlowEventBody } from '../engine/run-leg.js';
import { RunState, type NodeRecord } from '../engine/run-state.js';
import { FLOW_ERROR_CODES } from '../errors.js';
import { textOf } from '../expression/bind.js';
import type { Flow } from '../flow.js';
import { FlowTracer } from '../tracing/flow-tracer.js';
import type { FlowResult, FlowRun } from '../types.js';
import { FlowCheckpointer } from './checkpointer.js';
import { randomId, sessionBusyError, SessionLease } from './lease.js';

export interface FlowHostOptions<I, O> {
  /** Where checkpoints, approvals and the event log live; parts left out stay in memory. */
  store?: AgentStore;
  /** Nodes running at once, at most (default: no limit). */
  concurrency?: number;
  /** The text a finished run replies with (streamed as its text, and kept in the transcript). */
  reply?: (result: FlowResult<O>) => string | undefined;
  /** For `stream()`/`send()` with an agent's input (what the HTTP handler and the UI clients send). */
  input?: (input: AgentInput, options: { metadata?: Record<string, unknown> }) => I;
  /** Traces every run (see docs/tracing.md, "Flows"), as `createAgent({ traceExporter })` does an agent's. */
  traceExporter?: TraceExporter;
}

/** The tracing options of one call (`FlowExecutor.run()`, `resolve()`, `resume()`, a served flow's run). */
export interface LegTraceOptions {
  traceExporter?: TraceExporter;
  traceParent?: TraceParent;
}

type LegMode = 'turn' | 'resume' | 'approval';

interface LegStart {
  session: SessionRuntime;
  mode: LegMode;
  input?: unknown;
  /** What the transcript keeps as the user's message. */
  shown?: AgentInput;
  signal?: AbortSignal;
  concurrency?: number;
  /** An approval leg comes with the lease held and the checkpoint read. */
  lease?: SessionLease;
  /** Take the lease over from a holder whose lease has not run out (a resume that knows its process is gone). */
  force?: boolean;
  stored?: StoredCheckpoint | undefined;
  /** With tracing: the exporter, and the span the leg nests under. */
  trace?: { exporter: TraceExporter; parent?: TraceSpan } | undefined;
}

/** Where a leg starts from: a new run, or the stored run going on. */
interface Opening {
  fresh: boolean;
  runId: string;
  input: unknown;
  messages: Message[];
  runStart: number;
  records: NodeRecord[];
  usage: UsageTracker;
  written: { messages: number; records: number };
  start?: RunStart;
  userMessage?: Message;
  /** The span of the run's latest traced leg (a continuation links to it). */
  traceSpan?: SpanRef;
}

let sharedStore: AgentStore | undefined;
/** The store of flows run without one: one memory store per process, so a pause can be decided later. */
export function defaultStore(): AgentStore {
  return (sharedStore ??= memoryStore());
}

const FLOW_MODEL_PREFIX = 'flow:';

/**
 * Runs one flow on sessions, the way `createAgent()` runs an agent: one run at a time per session
 * (under the store's lease), checkpointed node by node, events numbered into the session's log,
 * approvals in the approval store. `FlowExecutor` and `createFlowAgent()` are views of it.
 */
export class FlowHost<I, O> {
  readonly flow: Flow<I, O>;
  readonly model: string;
  readonly #sessionStore: SessionStore;
  readonly #checkpoints: CheckpointStore;
  readonly #approvals: ApprovalStore;
  readonly #sessions = new Map<string, SessionRuntime>();
  readonly #concurrency: number;
  readonly #options: FlowHostOptions<I, O>;

  constructor(flow: Flow<I, O>, options: FlowHostOptions<I, O> = {}) {
    this.flow = flow;
    this.model = `${FLOW_MODEL_PREFIX}${flow.name}`;
    this.#options = options;
    const store = options.store ?? defaultStore();
    const fallback = store.sessions && store.checkpoints && store.approvals ? undefined : memoryStore();
    this.#sessionStore = store.sessions ?? fallback!.sessions;
    this.#checkpoints = store.checkpoints ?? fallback!.checkpoints;
    this.#approvals = store.approvals ?? fallback!.approvals;
    this.#concurrency = checkConcurrency(options.concurrency ?? Infinity);
  }

  /** The call's exporter, else the flow agent's, else its parent's (none: no tracing at all). */
  #traceOf(options: LegTraceOptions): LegStart['trace'] {
    const exporter = options.traceExporter ?? this.#options.traceExporter ?? options.traceParent?.exporter;
    return exporter && { exporter, ...(options.traceParent ? { parent: options.traceParent.span } : {}) };
  }

  #session(id: string): SessionRuntime {
    let session = this.#sessions.get(id);
    if (!session) this.#sessions.set(id, (session = new SessionRuntime(id, this.#sessionStore)));
    return session;
  }

  stateOf(s: SessionRuntime): SessionState {
    return {
      id: s.id,
      messages: s.messages,
      status: s.status,
      pendingApproval: s.pendingApproval,
      lastSeq: s.lastSeq,
      runStartIndex: s.runStartIndex ?? s.messages.length,
      ...(s.owner !== undefined ? { owner: s.owner } : {}),
    };
  }

  get(id: string): SessionState | undefined {
    const s = this.#sessions.get(id);
    return s && this.stateOf(s);
  }

  eventsAfter(id: string, afterSeq: number): AgentStreamEvent[] {
    return this.#sessions.get(id)?.eventsAfter(afterSeq) ?? [];
  }

  subscribe(id: string, listener: (event: AgentStreamEvent) => void): () => void {
    return this.#session(id).subscribe(listener);
  }

  stop(id: string): boolean {
    const s = this.#sessions.get(id);
    if (!s?.abortController || s.status !== 'running') return false;
    s.abortController.abort();
    return true;
  }

  async createSession(id: string, owner?: string): Promise<boolean> {
    const { created, record } = await this.#sessionStore.create(id, owner !== undefined ? { owner } : {});
    const local = this.#sessions.get(id);
    if (local) local.owner = record.owner;
    return created;
  }

  /** Brings this process's view of a session up to date with the store (unless a leg runs here). */
  async load(id: string): Promise<SessionState | undefined> {
    const record = await this.#sessionStore.get(id);
    const local = this.#sessions.get(id);
    if (!record) return local && this.stateOf(local);
    if (local && (local.active || (local.lastSeq === record.lastSeq && local.version > 0 && local.status !== 'running'))) {
      local.owner = record.owner;
      return this.stateOf(local);
    }
    const version = local?.version ?? 0;
    const [checkpoint, events] = await Promise.all([this.#checkpoints.load(id), this.#sessionStore.eventsAfter(id, 0)]);
    const runtime = this.#session(id);
    if (runtime.active || runtime.version !== version) return this.stateOf(runtime);
    let status: SessionStatus = record.status;
    let pendingApproval = record.pendingApproval;
    const run = checkpoint?.run;
    if (run?.state === 'paused' && run.paused) {
      const approval = await this.#approvals.get(run.paused.approval.approvalId);
      status = approval?.status === 'resolved' ? 'idle' : 'awaiting-approval';
      pendingApproval ??= run.paused.approval;
    } else if (status === 'running' && !checkpoint?.leased) {
      // The process running it is gone: the run waits for resume() or the next run.
      status = 'idle';
    } else if (status === 'awaiting-approval' && !pendingApproval) {
      status = 'idle';
    }
    runtime.hydrate({
      ...(record.owner !== undefined ? { owner: record.owner } : {}),
      status,
      pendingApproval: status === 'awaiting-approval' ? pendingApproval : null,
      runStartIndex: Math.min(record.runStartIndex, checkpoint?.messages.length ?? 0),
      lastSeq: record.lastSeq,
      messages: checkpoint?.messages ?? [],
      events,
    });
    runtime.version = Math.max(runtime.version, 1);
    // A leg nobody runs any more whose end is not in the log (its process died): ended now, so
    // this load, and every follower, sees the run stop without anybody sending anything.
    if (!checkpoint?.leased && lastLegOpen(events)) await this.#closeAbandoned(runtime);
    return this.stateOf(runtime);
  }

  /**
   * Ends a dead leg in the log under the session's lease, taken for a moment and never forced (a
   * leg that holds it is alive, and ends it itself). A run cut off mid-way leaves the session
   * `interrupted`: it waits for `resume()` or the next run.
   */
  async #closeAbandoned(session: SessionRuntime): Promise<void> {
    if (session.active) return;
    const lease = new SessionLease(this.#checkpoints, session.id);
    let stored: StoredCheckpoint | undefined;
    try {
      stored = await lease.acquire();
    } catch {
      return;
    }
    const me = {};
    session.activeLeg = me;
    try {
      const closing = await endInterruptedLeg(session, this.#sessionStore, stored, lease.fence);
      if (!closing) return;
      const cut = closing.events.some((event) => event.type === 'run.interrupted');
      const paused = stored?.run?.state === 'paused' && !cut ? stored.run.paused?.approval : undefined;
      session.status = cut ? 'interrupted' : paused ? 'awaiting-approval' : 'idle';
      session.pendingApproval = paused ?? null;
      await session.settled();
      await this.#sessionStore.update(session.id, { status: session.status, pendingApproval: session.pendingApproval });
    } catch {
      // A reader's courtesy: the next leg ends it otherwise.
    } finally {
      if (session.activeLeg === me) session.activeLeg = undefined;
      await lease.release();
    }
  }

  /** Pending approvals of this flow's runs (optionally of one session), oldest first. */
  async listApprovals(filter: { sessionId?: string } = {}): Promise<ApprovalRequest[]> {
    const records = await this.#approvals.list({ ...filter, status: 'pending' });
    return records
      .filter((r) => r.snapshot?.model === this.model)
      .map(({ snapshot: _s, status: _st, createdAt: _c, decision: _d, ...request }) => request);
  }

  /**
   * Starts a run (`turn`), or resumes an interrupted one (`resume`). `shown`: what the transcript
   * keeps as the user's message (what a served flow was sent); by default, the input's text.
   */
  start(input_: unknown, options: { sessionId?: string; signal?: AbortSignal; concurrency?: number; force?: boolean } & LegTraceOptions, mode: 'turn' | 'resume', shown?: AgentInput): FlowRun<O> {
    const sessionId = options.sessionId ?? randomId('sess');
    const session = this.#session(sessionId);
    if (session.active) throw sessionBusyError(sessionId);
    if (session.status === 'awaiting-approval' && session.pendingApproval) throw new SessionAwaitingApprovalError(sessionId, session.pendingApproval.approvalId);
    // A schema that answers at once refuses a bad input here, before a stream exists (as the HTTP
    // handler and the in-process client expect of a refusal); an async one is checked in the leg.
    let input = input_;
    if (mode === 'turn' && this.flow.inputSchema) {
      const checked = this.flow.inputSchema['~standard'].validate(input);
      if (!isPromise(checked)) {
        if (checked.issues) throw invalidInput(this.flow.name, checked.issues.map((issue) => ({ path: formatIssuePath(issue.path), message: issue.message })));
        input = checked.value;
      }
    }
    return this.#drive({
      session,
      mode,
      input,
      ...(shown !== undefined ? { shown } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      concurrency: checkConcurrency(options.concurrency ?? this.#concurrency),
      force: mode === 'resume' && options.force !== false,
      trace: this.#traceOf(options),
    });
  }

  /** Decides a paused approval node and runs the flow on from it. */
  async decide(
    approvalId: string,
    decision: { kind: 'tool'; approved: boolean; note?: string } | { kind: 'question'; answer: string },
    options: { signal?: AbortSignal; concurrency?: number } & LegTraceOptions = {},
  ): Promise<FlowRun<O>> {
    const concurrency = checkConcurrency(options.concurrency ?? this.#concurrency);
    const known = typeof approvalId === 'string' && approvalId.length > 0 ? await this.#approvals.get(approvalId) : undefined;
    if (!known || known.snapshot?.model !== this.model) {
      throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_FOUND, `No approval with id '${String(approvalId)}' in flow '${this.flow.name}'.`, {
        hint: 'Use an id from listApprovals() or from the paused run result.',
      });
    }
    if (known.status !== 'pending') throw notPending(approvalId, 'was already decided');
    if (decision.kind !== known.kind) {
      const message = `Approval '${approvalId}' is a yes/no decision of a flow: decide it with approved: true or false.`;
      throw new SDKError(ERROR_CODES.LOUSHO_APPROVAL_KIND_MISMATCH, message, { hint: message });
    }
    await this.load(known.sessionId);
    const session = this.#session(known.sessionId);
    if (session.active) throw sessionBusyError(known.sessionId);
    // The session's lease first, so a decision is only recorded when its continuation can run.
    const lease = new SessionLease(this.#checkpoints, known.sessionId);
    let stored: StoredCheckpoint | undefined;
    try {
      stored = await lease.acquire();
    } catch (error) {
      if (SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_SESSION_BUSY) throw notPending(approvalId, 'is being decided by another caller');
      throw error;
    }
    try {
      // A run this flow cannot go on with (it changed since) is refused before the decision is taken.
      this.#checkFits(known.sessionId, stored);
      const claimed = await this.#approvals.claim(approvalId);
      if (!claimed) throw notPending(approvalId, 'was already decided');
      const approved = decision.kind === 'tool' && decision.approved === true;
      const note = decision.kind === 'tool' && typeof decision.note === 'string' && decision.note !== '' ? decision.note : undefined;
      await this.#approvals.complete(approvalId, { approved, ...(note !== undefined ? { note } : {}) });
    } catch (error) {
      await lease.release();
      throw error;
    }
    return this.#drive({ session, mode: 'approval', lease, stored, ...(options.signal ? { signal: options.signal } : {}), concurrency, trace: this.#traceOf(options) });
  }

  /** Decides where a leg starts, from the stored checkpoint. Throws the refusals (busy, paused, nothing to resume). */
  async #open(sessionId: string, mode: LegMode, stored: StoredCheckpoint | undefined, input: unknown, shown?: AgentInput): Promise<Opening> {
    const run = stored?.run;
    if (run && run.model !== this.model) this.#checkFits(sessionId, stored);
    const going = (): Opening => {
      this.#checkFits(sessionId, stored);
      const r = run!;
      const messages = stored!.messages.slice();
      return {
        fresh: false,
        runId: r.runId,
        input: (messages[r.runStart]?.metadata as { flowInput?: unknown } | undefined)?.flowInput,
        messages,
        runStart: r.runStart,
        records: r.toolCalls.slice() as NodeRecord[],
        usage: new UsageTracker(r.usage),
        written: { messages: messages.length, records: r.toolCalls.length },
        ...(r.traceSpan ? { traceSpan: r.traceSpan } : {}),
      };
    };
    if (mode === 'approval') {
      if (run?.state !== 'paused') throw notPending('', 'belongs to a run that is not paused');
      return going();
    }
    if (!run || run.state === 'done') {
      if (mode === 'resume') throw new SessionNotResumableError(sessionId, run ? 'its latest run has finished' : 'it has no checkpoint');
      const runId = randomId('run');
      const userMessage: Message = Object.freeze({ role: 'user', content: messageContent(shown, input), metadata: { flowInput: input } });
      const messages = [...(stored?.messages ?? []), userMessage];
      const runStart = messages.length - 1;
      return {
        fresh: true,
        runId,
        input,
        messages,
        runStart,
        records: [],
        usage: new UsageTracker(),
        written: { messages: stored?.messages.length ?? 0, records: 0 },
        start: { runId, model: this.model, configContext: { sessionId, input: [] }, runStart },
        userMessage,
      };
    }
    if (run.state === 'paused') {
      // Go on when a decision was recorded but its continuation never ran; else the run waits.
      const records = (await this.#approvals.list({ sessionId })).filter((r) => r.runId === run.runId);
      let decided = false;
      for (const record of records) {
        if (record.status === 'resolved') decided = true;
        else if (record.status === 'resolving' && !record.decision) await this.#approvals.release(record.approvalId);
      }
      if (!decided) throw new SessionAwaitingApprovalError(sessionId, run.paused?.approval.approvalId ?? '');
      return going();
    }
    // Interrupted (a crash, a lost process): the same run goes on.
    const opening = going();
    if (mode === 'turn' && !sameValue(opening.input, input)) {
      throw new SDKError(FLOW_ERROR_CODES.LOUSHO_FLOW_SESSION_UNFINISHED, `Session '${sessionId}' has an interrupted run of flow '${this.flow.name}' with another input.`, {
        hint: 'Run it again with the same input (or call resume()) to finish it, or use another session id.',
      });
    }
    return opening;
  }

  #drive(params: LegStart): FlowRun<O> {
    const { session, mode } = params;
    const queue = new EventQueue();
    // The leg's own stream starts with its `run.start`: what ends a dead leg before it (see below)
    // reaches the session's other listeners only, as with createAgent().
    let streaming = false;
    const unsubscribe = session.subscribe((event) => streaming && queue.push(event));
    const before = { status: session.status, pendingApproval: session.pendingApproval };
    session.status = 'running';
    session.pendingApproval = null;
    const me = {};
    session.activeLeg = me;
    const leave = (): void => {
      if (session.activeLeg === me) session.activeLeg = undefined;
    };
    session.version++;
    const controller = new AbortController();
    session.abortController = controller;
    const signal = params.signal;
    if (signal?.aborted) controller.abort(signal.reason);
    else signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });

    const lease = params.lease ?? new SessionLease(this.#checkpoints, session.id);
    let runId = '';
    let started = false;
    // Once the store refused an append for a lost lease (or failed it), the session stores nothing
    // more of this leg's: the run that took over writes the log now.
    const emit = (event: UnsequencedStreamEvent | FlowEventBody): void => session.emit(runId, event as UnsequencedStreamEvent, lease.held ? lease.fence : undefined);

    const result = (async (): Promise<FlowResult<O>> => {
      let opening: Opening | undefined;
      let checkpointer: FlowCheckpointer | undefined;
      let tracer: FlowTracer | undefined;
      try {
        const input = mode === 'turn' ? await this.#checkInput(params.input) : params.input;
        const stored = params.lease ? params.stored : await lease.acquire(params.force === true);
        // A leg whose process died (killed, or cut off from the store) is ended in the log first
        // (`run.interrupted`, with what of the UI its checkpoint covers), so every reader sees it end.
        await endInterruptedLeg(session, this.#sessionStore, stored, lease.fence);
        streaming = true;
        opening = await this.#open(session.id, mode, stored, input, params.shown);
        runId = opening.runId;
        started = true;
        const { messages, records, usage } = opening;
        // The leg's span starts before its first checkpoint, which keeps its id: a leg that goes on
        // after this one (a decision, a crash) links to it.
        if (params.trace) {
          tracer = new FlowTracer(params.trace.exporter, params.trace.parent, {
            flow: this.flow.name,
            runId,
            sessionId: session.id,
            continuation: !opening.fresh,
            ...(opening.traceSpan ? { previous: opening.traceSpan } : {}),
          });
        }
        // A refused write means another run took the session over: this leg stops writing anything.
        checkpointer = new FlowCheckpointer(this.#checkpoints, session.id, lease.holder, opening.written, opening.start, () => lease.markLost(), tracer?.ref ?? opening.traceSpan);
        // Where a checkpoint stands in the log: every event emitted before it is stored first.
        const logged = async (): Promise<number> => {
          await session.settled();
          return session.lastSeq;
        };
        // Marked running before anything runs: a crash from here on is recovered.
        await checkpointer.write(messages, records, 'running', usage.snapshot());
        if (opening.fresh) session.runStartIndex = opening.runStart;
        else session.runStartIndex ??= opening.runStart;
        session.messages = messages;
        await this.#sessionStore.update(session.id, { status: 'running', pendingApproval: null, runStartIndex: session.runStartIndex });
        emit({ type: 'run.start', model: this.model, ...(opening.fresh ? {} : { continuation: true }) });
        if (opening.userMessage) emit({ type: 'user.message', message: opening.userMessage });
        // Nodes the checkpoint has as finished whose end a dead leg never logged: ended now (they do not run again).
        if (!opening.fresh) for (const event of unloggedEnds(session.log, runId, records)) emit(event);
        // Passes a dead leg left running run again from scratch: what their card showed of that
        // attempt (an agent's messages) is dropped first, so the card shows the rerun once.
        if (!opening.fresh) for (const event of abandonedAttempts(session.log, runId, records)) emit(event);

        const cp = checkpointer;
        const outcome = await runLeg({
          graph: this.flow.graph,
          runId,
          sessionId: session.id,
          input: opening.input,
          records: records.slice(),
          signal: controller.signal,
          concurrency: params.concurrency ?? this.#concurrency,
          emit,
          persist: async (record) => {
            records.push(record);
            return cp.write(messages, records, 'running', usage.snapshot(), undefined, { seq: await logged() });
          },
          countUsage: (u) => {
            usage.addDelegated(u);
            tracer?.count(u);
          },
          approvals: this.#gate(session.id, runId),
          tracer,
        });

        const waiting = outcome.waiting[0];
        const flowResult: FlowResult<O> = {
          runId,
          sessionId: session.id,
          finishReason: outcome.finishReason,
          outputs: outcome.state.outputs() as Partial<O>,
          path: outcome.state.path as FlowResult<O>['path'],
          usage: usage.snapshot(),
          ...(outcome.finishReason === 'awaiting-approval' && waiting ? { approvalId: waiting.approvalId, pendingApproval: waiting } : {}),
        };
        const paused = flowResult.finishReason === 'awaiting-approval' && waiting !== undefined;
        const text = flowResult.finishReason === 'stop' ? (this.#options.reply?.(flowResult) ?? '') : '';
        if (text) messages.push(Object.freeze({ role: 'assistant', content: text }));
        await cp.write(messages, records, paused ? 'paused' : 'done', flowResult.usage, paused ? { approval: waiting, step: records.length, calls: [], index: 0 } : undefined, {
          seq: await logged(),
          ...(paused ? {} : { finishReason: flowResult.finishReason }),
        });
        if (!paused) await this.#closeApprovals(session.id, runId);
        const status: SessionStatus = paused ? 'awaiting-approval' : 'idle';
        // Appends still on their way carry the lease: let them land before it is given up.
        await session.settled();
        await this.#sessionStore.update(session.id, { status, pendingApproval: paused ? waiting : null });
        await lease.release();
        session.messages = messages;
        session.status = status;
        session.pendingApproval = paused ? waiting : null;
        leave();
        tracer?.finish(flowResult.finishReason, flowResult.path, records.length, paused ? waiting.approvalId : undefined);
        if (text) emit({ type: 'text.delta', step: 1, delta: text });
        if (paused) emit({ type: 'approval.requested', approval: waiting });
        emit({
          type: 'run.done',
          finishReason: flowResult.finishReason,
          usage: flowResult.usage,
          text,
          steps: records.length,
          ...(paused ? { approvalId: waiting.approvalId } : {}),
        });
        await session.flush();
        return flowResult;
      } catch (error) {
        if (!started) {
          // Refused before anything ran: the session is as it was, the stream ends with the error.
          await lease.release();
          session.status = before.status;
          session.pendingApproval = before.pendingApproval;
          queue.fail(error);
          throw error;
        }
        session.status = 'idle';
        tracer?.fail(error);
        if (lease.held && !lease.lost && checkpointer && opening && !(error instanceof SessionLeaseLostError)) {
          try {
            // A failed run is over: the next run() starts a new one.
            await checkpointer.write(opening.messages, opening.records, 'done', opening.usage.snapshot(), undefined, { seq: await session.settled().then(() => session.lastSeq), error: serializeError(error) });
            await this.#closeApprovals(session.id, opening.runId);
          } catch {
            // The lease may be gone; then the next leg recovers from the last checkpoint.
          }
        }
        await session.settled();
        try {
          if (!lease.lost) await this.#sessionStore.update(session.id, { status: 'idle', pendingApproval: null });
        } catch {
          // The run's own error is the one to report.
        }
        await lease.release();
        leave();
        const end = { type: 'error', error: serializeError(error) } as const;
        // A leg cut off from the store ends without storing anything more (see SessionRuntime.endUnstored).
        if (lease.lost || lease.failure) session.endUnstored(runId, end, lease.fence, lease.lost);
        else emit(end);
        try {
          await session.flush();
        } catch {
          // Same: report the run's error.
        }
        throw error;
      } finally {
        leave();
        await lease.release();
        if (session.abortController === controller) session.abortController = undefined;
        unsubscribe();
        queue.close();
      }
    })();
    result.catch(() => {});

    return {
      get runId() {
        return runId;
      },
      sessionId: session.id,
      result,
      [Symbol.asyncIterator]: () => queue[Symbol.asyncIterator](),
    };
  }

  /**
   * A run that ended (stopped, failed) while approval nodes waited: their approvals are closed as
   * not approved, so nobody is asked to decide for a run that is over.
   */
  async #closeApprovals(sessionId: string, runId: string): Promise<void> {
    for (const record of await this.#approvals.list({ sessionId, status: 'pending' })) {
      if (record.runId !== runId || !(await this.#approvals.claim(record.approvalId))) continue;
      await this.#approvals.complete(record.approvalId, { approved: false, note: 'The flow run ended before this was decided.' });
    }
  }

  /** Throws `LOUSHO_FLOW_CHECKPOINT_MISMATCH` when the stored run is not one of this flow, as it is now. */
  #checkFits(sessionId: string, stored: StoredCheckpoint | undefined): void {
    const run = stored?.run;
    if (!run) return;
    if (run.model !== this.model) {
      throw new SDKError(
        FLOW_ERROR_CODES.LOUSHO_FLOW_CHECKPOINT_MISMATCH,
        run.model.startsWith(FLOW_MODEL_PREFIX)
          ? `Session '${sessionId}' belongs to flow '${run.model.slice(FLOW_MODEL_PREFIX.length)}', not '${this.flow.name}'.`
          : `Session '${sessionId}' holds an agent's conversation, not a run of flow '${this.flow.name}'.`,
        { hint: 'Use a session id of its own for each flow.' },
      );
    }
    const state = new RunState(this.flow.graph);
    for (const record of run.toolCalls) state.apply(record as NodeRecord);
  }

  /** The input checked against the flow's schema (its parsed value), or a `LOUSHO_INVALID_INPUT` refusal. */
  async #checkInput(input: unknown): Promise<unknown> {
    const schema = this.flow.inputSchema;
    if (!schema) return input;
    const checked = await validateToolSchema(schema, input);
    if (!checked.ok) throw invalidInput(this.flow.name, checked.issues);
    return checked.value;
  }

  /** Approval nodes' access to the approval store, for one run. */
  #gate(sessionId: string, runId: string): ApprovalGate {
    const approvals = this.#approvals;
    const model = this.model;
    return {
      async lookup(approvalId) {
        const record = await approvals.get(approvalId);
        if (!record) return 'none';
        if (record.status === 'resolved' && record.decision) {
          const { approved, note } = record.decision;
          return { decided: { approved: approved === true, ...(note !== undefined ? { note } : {}) } };
        }
        return 'pending';
      },
      async open(approval: PendingApprovalInfo) {
        const record: ApprovalRecord = {
          ...approval,
          sessionId,
          runId,
          status: 'pending',
          createdAt: Date.now(),
          // Approval stores keep a run snapshot; a flow's state is in its checkpoint, this marks whose it is.
          snapshot: { runId, sessionId, model, configContext: { sessionId, input: [] }, messages: [], runStart: 0, steps: 0, usage: emptyUsage(), stepUsage: [], toolCalls: [] },
        };
        await approvals.save(record);
      },
    };
  }
}

/**
 * The ends (`flow.node.done`) of the run's finished nodes whose part the log shows started but
 * never ended: the leg that finished them died between their checkpoint and their end event.
 */
function unloggedEnds(log: readonly AgentStreamEvent[], runId: string, records: readonly NodeRecord[]): FlowEventBody[] {
  const started = new Set<string>();
  const ended = new Set<string>();
  for (const event of log) {
    if (event.runId !== runId) continue;
    if (event.type === 'flow.node.start') started.add(event.toolCallId);
    else if (event.type === 'flow.node.done' || event.type === 'flow.node.error') ended.add(event.toolCallId);
  }
  const ends: FlowEventBody[] = [];
  for (const record of records) {
    const toolCallId = `${runId}:${record.toolCallId}`;
    if (started.has(toolCallId) && !ended.has(toolCallId)) ends.push({ type: 'flow.node.done', toolCallId, toolName: record.toolName, result: record.result });
  }
  return ends;
}

/**
 * For each pass of the run that the log shows started, with nested events, but never ended and
 * that the checkpoint does not have as finished (a dead leg was running it, so it runs again): a
 * nested `run.interrupted` that covers nothing of that attempt. A UI card keeps the pass's part
 * (its state, its place) and drops the attempt's nested messages, as an agent's UI does with what
 * an interrupted leg showed past its checkpoint; the rerun's events then fill it once.
 */
function abandonedAttempts(log: readonly AgentStreamEvent[], runId: string, records: readonly NodeRecord[]): FlowEventBody[] {
  const finished = new Set(records.map((record) => `${runId}:${record.toolCallId}`));
  const shown = new Set<string>();
  for (const event of log) {
    if (event.runId !== runId) continue;
    if (event.type === 'flow.node.event') shown.add(event.toolCallId);
    else if (event.type === 'flow.node.done' || event.type === 'flow.node.error') shown.delete(event.toolCallId);
  }
  return [...shown]
    .filter((toolCallId) => !finished.has(toolCallId))
    .map((toolCallId) => ({ type: 'flow.node.event', toolCallId, event: { type: 'run.interrupted', finishReason: 'interrupted', usage: null, messages: 0, parts: 0 } }));
}

/** The user message's content: what was sent (text or content parts), else the input's text. */
function messageContent(shown: AgentInput | undefined, input: unknown): Message['content'] {
  if (typeof shown === 'string') return shown;
  if (Array.isArray(shown) && shown.length > 0 && !('role' in (shown[0] as object))) return (shown as ContentPart[]).map((part) => ({ ...part }));
  return textOf(input);
}

function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function invalidInput(flow: string, issues: readonly ToolValidationIssue[]): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `The input of flow '${flow}' does not match its schema: ${summarizeIssues(issues)}.`, {
    hint: 'Pass an input that matches the schema given to FlowBuilder.create().',
  });
}

function checkConcurrency(concurrency: number): number {
  if (concurrency === Infinity || (Number.isInteger(concurrency) && concurrency >= 1)) return concurrency;
  throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `concurrency must be a positive integer, got ${String(concurrency)}.`, { hint: 'Leave it out for no limit.' });
}

function notPending(approvalId: string, why: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_APPROVAL_NOT_PENDING, `Approval '${approvalId}' ${why}.`, {
    hint: 'Each approval is decided once; list pending approvals with listApprovals().',
  });
}

/** Inputs compared as JSON (what the checkpoint kept of the first one). */
function sameValue(a: unknown, b: unknown): boolean {
  try {
    return JSON.stringify(a) === JSON.stringify(b);
  } catch {
    return false;
  }
}

export { approvalIdOf };
