import type { AgentStreamEvent } from '../events/types.js';
import { initialAgentUIState, reduceAgentEvents, type AgentUIState } from '../ui-state/index.js';
import { AgentClientError } from './errors.js';
import { randomSessionId } from './ids.js';
import type { AgentActionResult, AgentClient, AgentClientOptions, ClientDecision, ClientTransport, EventReader, LoadedSession } from './types.js';

// Written as one closure rather than a class, with few property names of its own: local names
// minify, properties do not, and this file is in every browser bundle that uses the client
// (docs/protocol.md, "Size"). Messages are one line: docs/protocol.md ("Client error codes")
// says what each code means and what to do.

/** Reconnections in a row that bring no new event before the client gives up on a stream. */
const MAX_RECONNECTS = 3;
const RECONNECT_DELAY_MS = 250;

type Opener = (signal: AbortSignal) => Promise<EventReader>;

/** Calls user code; an exception there is reported as uncaught (like a DOM listener's), never thrown into the client. */
function callSafely<A>(fn: ((arg: A) => void) | undefined, arg: A): void {
  try {
    fn?.(arg);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

/** The client over any transport; `createAgentClient()` picks the transport. */
export function createClientCore(
  transport: ClientTransport,
  initialSessionId: string | undefined,
  storageKey: string,
  { onEvent, onFinish, onError, storage, throttleMs = 16 }: AgentClientOptions,
): AgentClient {
  // (A negative throttle waits for nothing, as 0 does.)
  const throttle = throttleMs < Infinity ? throttleMs : 0;
  const listeners = new Set<(state: AgentUIState) => void>();

  let state = initialAgentUIState();
  /** The last sequence number received (ignored event types included): events must follow it without a gap. */
  let seen = 0;
  let sessionId = initialSessionId ?? stored('getItem') ?? undefined;
  let started: Promise<void> | undefined;
  let restoring: AbortController | undefined;
  /** The stream being read now (an action's, or a resumed one). */
  let leg: AbortController | undefined;
  /** As far as the client knows, a run leg is going on the server. */
  let serverRunning = false;
  const waiters: ((result: AgentActionResult) => void)[] = [];
  /** The last subscriber left: nothing is followed automatically until one comes back. */
  let detached = false;
  let destroyed = false;
  let detachTimer: ReturnType<typeof setTimeout> | undefined;
  let notifyTimer: ReturnType<typeof setTimeout> | undefined;
  let lastNotify = -Infinity;

  /** The session id in `storage`; storage can be blocked (privacy settings): then nothing is remembered. */
  function stored(method: 'getItem' | 'setItem' | 'removeItem', value?: string): string | null | undefined {
    try {
      // (A method the storage lacks throws here too, and is ignored the same way.)
      return (storage as Record<typeof method, (key: string, value?: string) => string | null> | undefined)?.[method](storageKey, value);
    } catch {
      return undefined;
    }
  }

  // ---- notifications ----

  function cancelNotify(): void {
    clearTimeout(notifyTimer);
    notifyTimer = undefined;
  }

  function notify(): void {
    cancelNotify();
    lastNotify = Date.now();
    for (const listener of [...listeners]) callSafely(listener, state);
  }

  /** Leading edge at once, then at most one call per `throttleMs`; `urgent` notifies now. */
  function changed(urgent: boolean): void {
    if (listeners.size && (urgent || notifyTimer === undefined)) {
      const wait = lastNotify + throttle - Date.now();
      if (!urgent && wait > 0) notifyTimer = setTimeout(notify, wait);
      else notify();
    }
  }

  function setState(next: AgentUIState): void {
    if (next !== state) {
      state = next;
      changed(true);
    }
  }

  // ---- outcomes ----

  function settle(result: AgentActionResult): AgentActionResult {
    for (const resolve of waiters.splice(0)) resolve(result);
    return result;
  }

  /** A failed outcome with the current state. */
  const failed = (code: string, message: string): AgentActionResult => ({ ok: false, state, error: { code, message } });

  /**
   * A failure of the transport or of a stream: into `state.error`, to `onError` and to the waiting
   * actions. An error with a string `code` keeps it; a failed `fetch` (a TypeError) is `LOUSHO_NETWORK_ERROR`.
   */
  function fail(error: any): AgentActionResult {
    const { code, message } = (error = typeof error?.code === 'string' ? error : new AgentClientError(error instanceof TypeError ? 'LOUSHO_NETWORK_ERROR' : 'LOUSHO_INTERNAL', String(error?.message ?? error), { cause: error }));
    serverRunning = false;
    // Through the reducer, so the state shows it as a server-side `error` event would.
    setState(reduceAgentEvents(state, { type: 'error', runId: state.runId ?? '', error: { code, message } } as AgentStreamEvent));
    callSafely(onError, error);
    return settle({ ok: false, state, error: state.error! });
  }

  /** An action that cannot happen now: reported; the state is left alone. */
  function refuse(code: string, message: string): AgentActionResult {
    callSafely(onError, new AgentClientError(code, message));
    return failed(code, message);
  }

  /** Stops reading streams (the server's run goes on) and resolves the waiting actions with `code`. */
  function stopFollowing(code: string, message: string): void {
    restoring?.abort();
    leg?.abort();
    restoring = leg = undefined;
    settle(failed(code, message));
  }

  // ---- events ----

  /** Applies one event; true when it changed the state (a replayed duplicate does not). */
  function apply(event: AgentStreamEvent): boolean {
    const { seq, type } = event;
    if (typeof seq === 'number') {
      if (seq <= seen) return false;
      // Events were missed (another tab ran turns meanwhile): re-read the session, then go on.
      if (seq > seen + 1) throw new AgentClientError('LOUSHO_STREAM_GAP', `Event ${seq} came after ${seen}.`);
      seen = seq;
    }
    let next: AgentUIState;
    try {
      next = reduceAgentEvents(state, event);
    } catch (cause) {
      throw new AgentClientError('LOUSHO_STREAM_BAD_EVENT', `Event ${seq} is malformed.`, { cause });
    }
    if (next === state) return false;
    const ends = type === 'run.done' || type === 'error';
    if (type === 'run.start') serverRunning = true;
    if (ends) serverRunning = false;
    state = next;
    changed(ends);
    callSafely(onEvent, event);
    if (type === 'run.done') {
      const finishReason = event.finishReason;
      callSafely(onFinish, { state: next, finishReason });
      settle({ ok: true, state: next, finishReason });
    } else if (type === 'error') {
      const error = event.error;
      callSafely(onError, new AgentClientError(error.code, error.message));
      settle({ ok: false, state: next, error });
    }
    return true;
  }

  const followOpener: Opener = (signal) => transport.follow(sessionId!, seen, signal);

  /** Reads the session from the server and takes its state (unless `signal` was aborted meanwhile). */
  async function reload(id: string, signal: AbortSignal): Promise<LoadedSession | undefined> {
    const loaded = await transport.load(id, signal);
    if (loaded && !signal.aborted) {
      serverRunning = loaded.running;
      seen = loaded.state.lastSeq;
      setState(loaded.state);
    }
    return loaded;
  }

  /**
   * Reads a leg into the state. A stream that breaks or ends before the leg's end is resumed
   * after the last applied event; a gap in the server's log re-reads the session. Never rejects.
   */
  async function consume(open: Opener): Promise<void> {
    const controller = new AbortController();
    const { signal } = controller;
    leg?.abort();
    leg = controller;
    serverRunning = true;
    let opener = open;
    let reconnects = 0;
    try {
      for (;;) {
        let opened = false;
        let progressed = false;
        let failure: unknown;
        try {
          const read = await opener(signal);
          opened = true;
          await read((event) => {
            // `leg` moves on whenever this leg is aborted; cheaper per event than `signal.aborted`.
            if (leg === controller && apply(event)) progressed = true;
          });
        } catch (error) {
          failure = error;
        }
        if (signal.aborted) return;
        const code = (failure as { code?: unknown } | undefined)?.code;
        if (code === 'LOUSHO_STREAM_GAP') {
          // The server's log no longer has what we missed: take the session as it is now.
          const loaded = await reload(sessionId!, signal);
          if (signal.aborted) return;
          if (!loaded) throw new AgentClientError('LOUSHO_SESSION_NOT_FOUND', 'No such session.');
          if (!loaded.running) break;
        } else {
          // A refused request, or a stream that cannot be read: reconnecting would not help.
          if (failure !== undefined && (!opened || /^LOUSHO_STREAM_/.test(code as string))) throw failure;
          if (!serverRunning) break;
          // The stream ended (or broke) before the leg did: resume after the last applied event.
          reconnects = progressed ? 1 : reconnects + 1;
          if (reconnects > MAX_RECONNECTS) throw failure ?? new AgentClientError('LOUSHO_STREAM_INTERRUPTED', 'The stream ended early.');
          if (reconnects > 1) {
            await new Promise((resolve) => setTimeout(resolve, RECONNECT_DELAY_MS * (reconnects - 1)));
            if (signal.aborted) return;
          }
        }
        opener = followOpener;
      }
      settle({ ok: true, state, finishReason: state.finishReason });
    } catch (error) {
      if (!signal.aborted) fail(error);
    } finally {
      if (leg === controller) leg = undefined;
    }
  }

  /** Starts reading a leg; resolves when it ends (or the client stops following it). */
  function action(open: Opener): Promise<AgentActionResult> {
    const result = new Promise<AgentActionResult>((resolve) => waiters.push(resolve));
    void consume(open);
    return result;
  }

  async function restore(): Promise<void> {
    const id = sessionId;
    if (id === undefined) return;
    const controller = (restoring = new AbortController());
    const signal = controller.signal;
    try {
      await reload(id, signal);
    } catch (error) {
      if (!signal.aborted) fail(error);
      return;
    } finally {
      if (restoring === controller) restoring = undefined;
    }
    if (!signal.aborted && serverRunning && !detached && !leg) void consume(followOpener);
  }

  const start = (): Promise<void> => (destroyed ? Promise.resolve() : (started ??= restore()));

  /** Waits for the restore; a refusal when the client cannot act, or when `busy` and a turn runs. */
  async function ready(busy?: boolean): Promise<AgentActionResult | undefined> {
    if (!destroyed) await start();
    return destroyed ? refuse('LOUSHO_CLIENT_DESTROYED', 'Destroyed.') : busy && serverRunning ? refuse('LOUSHO_SESSION_BUSY', 'A turn is running.') : undefined;
  }

  async function decide(decision: ClientDecision): Promise<AgentActionResult> {
    const refused = await ready(true);
    if (refused) return refused;
    const pending = state.pendingApproval;
    const id = sessionId;
    if (!pending || id === undefined) return refuse('LOUSHO_APPROVAL_NOT_FOUND', 'Nothing to decide.');
    if (pending.kind !== decision.kind) return refuse('LOUSHO_APPROVAL_KIND_MISMATCH', `Use ${pending.kind === 'question' ? 'answer()' : 'approve() or reject()'}.`);
    return action((signal) => transport.decide(id, pending.approvalId, decision, signal));
  }

  const tool = (approved: boolean, note?: string): Promise<AgentActionResult> => decide({ kind: 'tool', approved, note });

  // `sessionId` is a data property kept in step, not a getter: an object literal with a getter gets
  // a hidden class of its own per client, which keeps a dropped client (and its last state) alive
  // until the next full garbage collection.
  const client: { -readonly [K in keyof AgentClient]: AgentClient[K] } = {
    sessionId,

    getSnapshot: () => state,

    subscribe(listener) {
      if (destroyed) return () => {};
      listeners.add(listener);
      // Back before the deferred detach ran (React StrictMode's unmount + mount): nothing to redo.
      clearTimeout(detachTimer);
      detachTimer = undefined;
      if (detached) {
        detached = false;
        if (started && !restoring && serverRunning && !leg) void consume(followOpener);
      }
      void start();
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        listeners.delete(listener);
        if (listeners.size || destroyed || detachTimer !== undefined) return;
        detachTimer = setTimeout(() => {
          detachTimer = undefined;
          if (listeners.size) return;
          detached = true;
          cancelNotify();
          if (leg) stopFollowing('LOUSHO_CLIENT_DETACHED', 'Detached.');
        }, 0);
      };
    },

    start,

    async send(input, sendOptions = {}) {
      const refused = await ready(true);
      if (refused) return refused;
      if (state.pendingApproval) return refuse('LOUSHO_SESSION_AWAITING_APPROVAL', 'An approval is pending.');
      const id = (client.sessionId = sessionId ??= randomSessionId());
      stored('setItem', id);
      const metadata = sendOptions.metadata;
      return action((signal) => transport.send(id, input, metadata, signal));
    },

    async stop() {
      const refused = await ready();
      if (refused) return refused;
      const id = sessionId;
      // While following the leg: resolve once its end (`run.done` with `aborted`) arrives.
      const ended = id !== undefined && serverRunning && leg ? new Promise<AgentActionResult>((resolve) => waiters.push(resolve)) : undefined;
      if (id !== undefined) {
        try {
          await transport.stop(id);
        } catch (error) {
          return fail(error);
        }
      }
      return ended ?? { ok: true, state, finishReason: null };
    },

    approve: (note) => tool(true, note),
    reject: (note) => tool(false, note),
    answer: (text) => decide({ kind: 'question', answer: text }),

    reset() {
      if (destroyed) return;
      stopFollowing('LOUSHO_CLIENT_DETACHED', 'Reset.');
      serverRunning = false;
      client.sessionId = sessionId = undefined;
      seen = 0;
      stored('removeItem');
      started = Promise.resolve(); // a new session has nothing to restore
      setState(initialAgentUIState());
    },

    destroy() {
      if (destroyed) return;
      stopFollowing('LOUSHO_CLIENT_DESTROYED', 'Destroyed.');
      destroyed = true;
      listeners.clear();
      clearTimeout(detachTimer);
      clearTimeout(notifyTimer);
    },
  };
  return client;
}
