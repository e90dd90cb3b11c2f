import { INITIAL, randomSessionId, reduceEvent, type AgentStreamEvent, type AgentUIState } from '@lousho/protocol';
import { AgentClientError } from './errors.js';
import type { AgentActionResult, AgentClient, AgentClientOptions, ClientDecision, ClientTransport, EventReader, QueueChange } from './types.js';

// Written as one closure rather than a class, with few property names of its own: local names
// minify, properties do not, and this file is in every browser bundle that uses the client
// (docs/protocol.md, "Size"). Messages are one line: docs/protocol.md ("Client error codes")
// says what each code means and what to do.

/** Attempts in a row without a new event, the last a stream the server ended early, before the client gives up. */
const MAX_EMPTY_STREAMS = 3;
/** How long the client keeps trying to reach the server after the connection was lost (default). */
const RECONNECT_TIMEOUT_MS = 120_000;
/** The longest wait between two attempts to reach the server. */
const RETRY_CAP_MS = 8_000;
/**
 * Default notification interval while a reply streams: 20 updates a second read as smooth text,
 * and on a long chat each update's layout and paint is most of the main thread's work, so
 * updating less often than every frame is what keeps a page light (docs/benchmarks.md).
 */
const DEFAULT_THROTTLE_MS = 50;
const DESTROYED = 'LOUSHO_CLIENT_DESTROYED';
const DETACHED = 'LOUSHO_CLIENT_DETACHED';

type Opener = (signal: AbortSignal) => Promise<EventReader>;

/** The reducer: the entry one until an event it does not know loads the full one (see `apply`). */
let reduce: typeof reduceEvent = reduceEvent;

/** An error with a string `code` as it is; a failed `fetch` (a TypeError) as `LOUSHO_NETWORK_ERROR`, anything else as `LOUSHO_INTERNAL`. */
const coded = (error: any): AgentClientError =>
  typeof error?.code === 'string' ? error : new AgentClientError(error instanceof TypeError ? 'LOUSHO_NETWORK_ERROR' : 'LOUSHO_INTERNAL', error?.message ?? error, { cause: error });

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
  options: AgentClientOptions,
): AgentClient {
  // The callbacks are read from `options` when they are called: a binding keeps them current there.
  const { storage, throttleMs = DEFAULT_THROTTLE_MS, reconnectTimeoutMs = RECONNECT_TIMEOUT_MS } = options;
  // (A negative throttle waits for nothing, as 0 does.)
  const throttle = throttleMs < Infinity ? throttleMs : 0;
  const listeners = new Set<(state: AgentUIState) => void>();

  let state = INITIAL;
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
  /** The state under `status: 'reconnecting'` while that is shown (the reducer never makes that status). */
  let underReconnecting: AgentUIState | undefined;

  /** The session id in `storage`; storage can be blocked (privacy settings): then nothing is remembered. */
  function stored(method: 'getItem' | 'setItem' | 'removeItem', value?: string): string | null | undefined {
    try {
      // (A method the storage lacks throws here too, and is ignored the same way.)
      return (storage as Record<typeof method, (key: string, value?: string) => string | null> | undefined)?.[method](storageKey, value);
    } catch {
      // blocked: nothing remembered
    }
  }

  // ---- notifications ----

  function notify(): void {
    clearTimeout(notifyTimer);
    notifyTimer = undefined;
    lastNotify = Date.now();
    for (const listener of [...listeners]) callSafely(listener, state);
  }

  /**
   * Leading edge at once, then at most one call per `throttleMs`; `urgent` notifies now. A change
   * with no leg going on (always urgent) may leave the run paused on a browser tool's call: with
   * `browserTools`, browser-tools.ts (loaded then) runs its handler.
   */
  function changed(urgent: boolean): void {
    if (!serverRunning && options.browserTools) void import('./browser-tools.js').then((m) => m.runBrowserTool(client, options));
    // (A timer id is never falsy: a positive number in browsers, an object in Node.)
    if (listeners.size && (urgent || !notifyTimer)) {
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

  /** Shows the state as it was before `reconnecting`. */
  function reconnected(): void {
    if (state.status === 'reconnecting') setState(underReconnecting!);
  }

  // ---- outcomes ----

  /** An action's outcome: `ok` as the leg ended, or `error`. */
  const outcome = (error?: { code: string; message: string }): AgentActionResult =>
    error ? { ok: false, state, error: { code: error.code, message: error.message } } : { ok: true, state, finishReason: state.finishReason };

  /** Resolves the waiting actions with `outcome(error)`. */
  function settle(error?: { code: string; message: string }): void {
    const result = outcome(error);
    for (const resolve of waiters.splice(0)) resolve(result);
  }

  /** Calls `onError` with `error`; returns it. */
  const report = (error: AgentClientError): AgentClientError => (callSafely(options.onError, error), error);

  /** An action that cannot happen now (the state and the waiting actions are left alone): reported to `onError`. */
  const refuse = (error: AgentClientError): AgentActionResult => outcome(report(error));

  /**
   * A failure of the transport or of a stream: into `state.error` (status `error`), to `onError`
   * and to the waiting actions. Tool calls keep their state: the server's run may well go on, and
   * only the server says that a call was cancelled. A pending approval stays: a decision the
   * server refused (a browser tool's result that fails its schema) leaves it pending, to decide again.
   */
  function fail(failure: unknown): void {
    const error = coded(failure);
    serverRunning = false;
    setState({ ...state, status: 'error', error: { code: error.code, message: error.message }, finishReason: null });
    settle(report(error));
  }

  /** Stops reading streams (the server's run goes on) and resolves the waiting actions with `code`. */
  function stopFollowing(code: string, message: string): void {
    restoring?.abort();
    leg?.abort();
    restoring = leg = undefined;
    settle({ code, message });
  }

  // ---- events ----

  /** Applies one event (a replayed duplicate changes nothing). */
  function apply(event: AgentStreamEvent): void {
    // (Every event of a session has its `seq`: both transports read a session's log.)
    const { seq } = event;
    if (seq <= seen) return;
    // Events were missed (another tab ran turns meanwhile): re-read the session, then go on. A
    // replayed event may stand for several merged deltas (`fromSeq`..`seq`): it must start right after `seen`.
    // (Only `consume()` sees this error, and re-reads the session: it is never reported.)
    if (((event as { fromSeq?: number }).fromSeq ?? seq) > seen + 1) throw new AgentClientError('LOUSHO_STREAM_GAP', `Events before ${seq} were missed.`);
    let next: AgentUIState | undefined;
    try {
      next = reduce(state, event);
    } catch (cause) {
      throw new AgentClientError('LOUSHO_STREAM_BAD_EVENT', `Event ${seq} is not an event.`, { cause });
    }
    // An event the entry reducer does not know (an approval's, a sub-agent's, a flow's, a newer
    // server's): the full reducer is loaded (it knows every event, and ignores the ones it does
    // not), then `consume()` reads on from this event, which is not applied yet: thrown, the
    // loading promise stops this stream, and no event is skipped.
    if (!next) throw import('./full-reducer.js').then((m) => (reduce = m.reduceAgentEvents));
    seen = seq;
    if (next === state) return;
    const { error, finishReason } = (state = next);
    // A leg has ended when the state says how: `run.done` (a finish reason), `error`, or
    // `run.interrupted` (its process could not end it; a run taking over starts right after, with
    // `run.start`, which clears both). A leg that ends with messages queued goes on into the next
    // turn, which the server starts at once (`submitted`): it is followed too.
    serverRunning = next.status == 'submitted' || !(error || finishReason);
    changed(!serverRunning);
    callSafely(options.onEvent, event);
    if (error) settle(report(new AgentClientError(error.code, error.message)));
    else if (finishReason) {
      callSafely(options.onFinish, { state, finishReason });
      settle();
    }
  }

  const followOpener: Opener = (signal) => transport.follow(sessionId!, seen, signal);

  /** Reads the session from the server and takes its state (unless `signal` was aborted meanwhile); false when there is none. */
  async function reload(signal: AbortSignal): Promise<boolean> {
    const loaded = await transport.load(sessionId!, signal);
    if (loaded && !signal.aborted) {
      serverRunning = loaded.running;
      seen = loaded.state.lastSeq;
      setState(loaded.state);
    }
    return !!loaded;
  }

  /**
   * Reads a leg into the state. A stream that breaks or ends before the leg's end is resumed
   * after the last applied event: at once, then with capped exponential backoff and jitter (at
   * once when the browser is back online) while the server cannot be reached, showing
   * `reconnecting`, for up to `reconnectTimeoutMs`. A gap in the server's log re-reads the
   * session. Never rejects.
   */
  async function consume(open: Opener): Promise<void> {
    const controller = new AbortController();
    const { signal } = controller;
    leg?.abort();
    leg = controller;
    serverRunning = true;
    /** Attempts since the last new event. */
    let attempts = 0;
    /** When the server stopped answering (the client went `reconnecting`). */
    let lost = 0;
    try {
      // Until the leg ends (`serverRunning` false) or the reading is given up.
      while (serverRunning) {
        /** Set once the stream is open. */
        let read: EventReader | undefined;
        let failure: any;
        /** Progress: the stream brought events this client had not seen. */
        const from = seen;
        try {
          read = await open(signal);
          reconnected();
          await read(
            (event) => {
              // `leg` moves on whenever this leg is aborted; cheaper per event than `signal.aborted`.
              if (leg === controller) apply(event);
            },
            // Deltas read together may be applied as one when nobody sees single events or states.
            !options.onEvent && throttle > 0,
          );
        } catch (error) {
          failure = error;
        }
        if (signal.aborted) return;
        const code = failure?.code;
        if (failure?.then) await failure;
        else if (code === 'LOUSHO_STREAM_GAP') {
          // The server's log no longer has what we missed: take the session as it is now.
          if (!(await reload(signal))) throw new AgentClientError('LOUSHO_SESSION_NOT_FOUND', 'No such session.');
        } else if (failure && (read ? /^LOUSHO_STREAM_/.test(code) : open !== followOpener || !(failure instanceof TypeError || failure?.status > 501))) {
          // A refused request, a stream that cannot be read, or an action's own request that did not
          // get through (it may or may not have reached the server): trying again would not help.
          // Worth retrying: the network (a failed `fetch` or body read), or a status from 502 up (a
          // gateway or proxy that cannot reach the server: it restarts, or is down for a moment).
          throw failure;
        } else if (serverRunning) {
          // The stream ended (or broke) before the leg did, or the server could not be reached:
          // resume after the last applied event.
          attempts = seen > from ? 1 : attempts + 1;
          if (failure) {
            // (Until a request gets through: that puts the status back.)
            if (state.status !== 'reconnecting') {
              setState({ ...(underReconnecting = state), status: 'reconnecting' });
              lost = Date.now();
            }
            if (Date.now() - lost > reconnectTimeoutMs) throw failure;
          } else if (attempts > MAX_EMPTY_STREAMS) {
            throw new AgentClientError('LOUSHO_STREAM_INTERRUPTED', 'The stream ended early.');
          }
          // A random part of 500 ms, doubling up to 8 s ("full jitter": clients cut at once come back spread out).
          // The wait ends early when the browser says it is back online (whichever comes second finds nothing to do).
          if (attempts > 1)
            await new Promise<void>((resolve) => {
              const done = (): void => {
                globalThis.removeEventListener?.('online', done);
                resolve();
              };
              setTimeout(done, Math.random() * Math.min(RETRY_CAP_MS, 2 ** attempts * 125));
              globalThis.addEventListener?.('online', done);
            });
        }
        if (signal.aborted) return;
        open = followOpener;
      }
      settle();
    } catch (error) {
      if (!signal.aborted) fail(error);
    } finally {
      if (leg === controller) leg = undefined;
      // Unless a newer leg is read now. (A failure has replaced `reconnecting` with an error already; a reset, with a new session.)
      if (!leg) reconnected();
    }
  }

  /** Follows the leg the server is running, when there is one and nobody follows it yet. */
  function follow(): void {
    if (serverRunning && !restoring && !leg && !detached) void consume(followOpener);
  }

  async function restore(): Promise<void> {
    if (!sessionId) return;
    const controller = (restoring = new AbortController());
    const signal = controller.signal;
    try {
      await reload(signal);
    } catch (error) {
      // (Which leaves nothing to follow.)
      if (!signal.aborted) fail(error);
    }
    if (restoring === controller) restoring = undefined;
    if (!signal.aborted) follow();
  }

  const start = (): Promise<void> => (destroyed ? Promise.resolve() : (started ??= restore()));

  /**
   * An action that reads a leg: once the session is restored, refused when the client is
   * destroyed, when a turn runs, or when `refusal()` names why not ([code, message]); else resolves
   * when the leg ends (or the client stops following it).
   */
  async function act(refusal: () => [string, string] | false | null | undefined, open: Opener): Promise<AgentActionResult> {
    await start();
    const why = destroyed ? [DESTROYED, 'Destroyed.'] : serverRunning ? ['LOUSHO_SESSION_BUSY', 'A turn is running.'] : refusal();
    if (why) return refuse(new AgentClientError(...(why as [string, string])));
    const result = new Promise<AgentActionResult>((resolve) => waiters.push(resolve));
    void consume(open);
    return result;
  }

  const decide = (decision: ClientDecision): Promise<AgentActionResult> =>
    act(
      () => {
        const pending = state.pendingApproval;
        // (A pending approval comes from the session: there is one.)
        return !pending
          ? ['LOUSHO_APPROVAL_NOT_FOUND', 'No approval is pending.']
          : pending.kind !== decision.kind && ['LOUSHO_APPROVAL_KIND_MISMATCH', `A ${pending.kind} approval is pending.`];
      },
      (signal) => transport.decide(sessionId!, state.pendingApproval!.approvalId, decision, signal),
    );

  /**
   * A change to the session's queue: resolves once the server has it. The change reaches the state
   * as an event of the leg the client follows; with none followed, the session is read again (and
   * a turn it started meanwhile is followed).
   */
  async function queue(change: QueueChange): Promise<AgentActionResult> {
    await start();
    try {
      await transport.queue(sessionId!, change);
    } catch (error) {
      return refuse(coded(error));
    }
    if (!leg) await restore();
    return outcome();
  }

  /** The session's id, made (and remembered) on first use: by a send or an upload. */
  const ensureSession = (): string => {
    const id = (client.sessionId = sessionId ??= randomSessionId());
    stored('setItem', id);
    return id;
  };

  const tool = (approved: boolean, note?: string): Promise<AgentActionResult> => decide({ kind: 'tool', approved, note });

  /**
   * Switches to session `id` (a new, empty one without): the session followed so far is left to
   * run on the server, the waiting actions resolve with `LOUSHO_CLIENT_DETACHED`, and `id` is
   * restored like a reload would (its state, then its running turn from the last event read: none
   * lost, none twice). Storage follows. A new state object either way, so every binding re-renders.
   */
  function open(id?: string): Promise<void> {
    if (destroyed) return Promise.resolve();
    stopFollowing(DETACHED, 'Switched.');
    serverRunning = false;
    client.sessionId = sessionId = id;
    seen = 0;
    stored(id ? 'setItem' : 'removeItem', id);
    setState({ ...INITIAL });
    // (Without an id, `restore()` has nothing to read.)
    return (started = restore());
  }

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
      // Back after a detach: the leg the server runs is followed again (before the first `start()`,
      // nothing runs as far as the client knows).
      detached = false;
      follow();
      void start();
      return () => {
        // (A second call finds nothing to delete.)
        if (!listeners.delete(listener) || listeners.size || destroyed || detachTimer) return;
        // (A throttled notification still due finds no listener: nothing to cancel.)
        detachTimer = setTimeout(() => {
          detachTimer = undefined;
          if (listeners.size) return;
          detached = true;
          if (leg) stopFollowing(DETACHED, 'Detached.');
        }, 0);
      };
    },

    start,

    // While a turn runs, a message goes to the session's queue (or steers the turn; `mode: 'turn'`
    // is refused there with LOUSHO_SESSION_BUSY). docs/protocol.md, "Queued messages and steering".
    send: async (input, options = {}) =>
      (await start(), serverRunning)
        ? queue({ ...options, input })
        : act(
            () => state.pendingApproval && ['LOUSHO_SESSION_AWAITING_APPROVAL', 'An approval is pending.'],
            (signal) => transport.send(ensureSession(), input, options.metadata, signal),
          ),

    unqueue: (queueId) => queue({ remove: queueId }),

    // (A transport of your own without uploads: a TypeError.)
    upload: (file, name) => transport.upload!(ensureSession(), file, name),


    async stop() {
      await start();
      if (destroyed) return refuse(new AgentClientError(DESTROYED, 'Destroyed.'));
      // While following the leg: resolve once its end (`run.done` with `aborted`) arrives.
      const ended = serverRunning && leg && new Promise<AgentActionResult>((resolve) => waiters.push(resolve));
      try {
        // (Without a session there is nothing to stop.)
        if (sessionId) await transport.stop(sessionId);
      } catch (error) {
        // The stop did not get through: reported, and the state (and the leg followed) left as they are.
        return refuse(coded(error));
      }
      return ended || { ok: true, state, finishReason: null };
    },

    // The server says whether there is anything to resume (LOUSHO_SESSION_NOT_RESUMABLE if not).
    resume: () => act(() => false, (signal) => transport.resume(sessionId!, signal)),

    approve: (note) => tool(true, note),
    reject: (note) => tool(false, note),
    answer: (text) => decide({ kind: 'question', answer: text }),
    // (`error`, when given, wins over `result`; the server refuses a `toolCallId` the run does not wait on.)
    submitToolResult: (toolCallId, result, more) => decide({ kind: 'client', result, ...more, toolCallId }),

    reset: () => void open(),

    open,

    // (Timers still due find nothing to do once the client is destroyed.)
    destroy() {
      if (destroyed) return;
      stopFollowing(DESTROYED, 'Destroyed.');
      destroyed = true;
      listeners.clear();
    },
  };
  return client;
}
