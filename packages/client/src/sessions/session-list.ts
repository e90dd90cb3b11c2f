import type { AgentUIStatus, SerializedError } from '@lousho/protocol';
import { AgentClientError } from '../errors.js';
import { sessionListTransportFor } from './session-list-transport.js';
import type { SessionList, SessionListChat, SessionListOptions, SessionListResult, SessionListSource, SessionListState, SessionListTransport } from './types.js';

const INITIAL: SessionListState = { sessions: [], status: 'idle', error: null, hasMore: false, current: undefined };

/** An error with a string `code` as it is; anything else (a failed `fetch`) as `LOUSHO_NETWORK_ERROR`. */
const coded = (error: any): AgentClientError =>
  typeof error?.code === 'string' ? error : new AgentClientError('LOUSHO_NETWORK_ERROR', String(error?.message ?? error), { cause: error });

/**
 * A thread list for `source` (the chat client's own source: `{ url, headers?, fetch? }` or
 * `{ agent }`), opening threads in `chat` (the client, or a binding's `useLoushoAgent()` result).
 * Creating it does no I/O; the first subscriber loads the first page.
 */
export function createSessionList(source: SessionListSource, chat: SessionListChat, options: SessionListOptions = {}): SessionList {
  return createSessionListWithTransport(sessionListTransportFor(source), chat, options);
}

/** The same over your own transport (a test double, another protocol). */
export function createSessionListWithTransport(transport: SessionListTransport, chat: SessionListChat, options: SessionListOptions = {}): SessionList {
  const limit = options.limit ?? 20;
  const listeners = new Set<(state: SessionListState) => void>();
  let state: SessionListState = { ...INITIAL, current: chat.sessionId };
  let cursor: string | undefined;
  /** Bumped by each first-page read and each destroy: an older read's answer is dropped. */
  let generation = 0;
  let destroyed = false;
  let last: { sessionId: string | undefined; status: AgentUIStatus } | undefined;

  function set(patch: Partial<SessionListState>): void {
    if (destroyed) return;
    state = { ...state, ...patch };
    for (const listener of [...listeners]) listener(state);
  }

  /** A failure into the state and to `onError`; the threads shown stay as they were. */
  function failed(failure: unknown, patch: Partial<SessionListState> = {}): SessionListResult {
    const error = coded(failure);
    const serialized: SerializedError = { code: error.code, message: error.message };
    set({ ...patch, error: serialized });
    options.onError?.(error);
    return { ok: false, error: serialized };
  }

  async function readPage(first: boolean): Promise<SessionListResult> {
    const mine = first ? ++generation : generation;
    set({ status: 'loading' });
    try {
      // A first page read again covers as many threads as are shown (up to 100): a refresh does not take away what "more" loaded.
      const size = first ? Math.min(100, Math.max(limit, state.sessions.length)) : limit;
      const page = await transport.list({ limit: size, ...(first || cursor === undefined ? {} : { cursor }) });
      if (mine !== generation) return { ok: true };
      cursor = page.nextCursor;
      // A thread already shown (it moved up since the last page was read) is not shown twice.
      const shown = first ? [] : state.sessions;
      const ids = new Set(page.sessions.map((s) => s.id));
      set({ sessions: [...shown.filter((s) => !ids.has(s.id)), ...page.sessions], status: 'ready', error: null, hasMore: page.nextCursor !== undefined });
      return { ok: true };
    } catch (error) {
      return mine === generation ? failed(error, { status: 'error' }) : { ok: true };
    }
  }

  /** The first-page read under way, and the one asked for meanwhile (one, whoever asked: it reads the newest state). */
  let reading: Promise<SessionListResult> | undefined;
  let queued: Promise<SessionListResult> | undefined;

  function readFirst(): Promise<SessionListResult> {
    const read = (reading = readPage(true));
    void read.then(() => {
      if (reading === read) reading = undefined;
    });
    return read;
  }

  function refresh(): Promise<SessionListResult> {
    if (queued) return queued;
    if (!reading) return readFirst();
    return (queued = reading.then(() => {
      queued = undefined;
      return readFirst();
    }));
  }

  async function change(action: () => Promise<void>, after: () => Partial<SessionListState>): Promise<SessionListResult> {
    try {
      await action();
    } catch (error) {
      return failed(error);
    }
    set({ ...after(), error: null });
    return { ok: true };
  }

  return {
    getSnapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      if (state.status === 'idle' && !reading) void refresh();
      return () => void listeners.delete(listener);
    },
    refresh,
    // (After a first-page read under way: the next page is the one after it.)
    async loadMore() {
      while (reading) await reading;
      return state.hasMore ? readPage(false) : { ok: true };
    },
    rename: (id, title) =>
      change(
        () => transport.rename(id, title),
        () => ({ sessions: state.sessions.map((s) => (s.id === id ? { ...s, title: title.trim() } : s)) }),
      ),
    remove: (id) =>
      change(
        () => transport.remove(id),
        () => {
          if (chat.sessionId === id) chat.reset();
          return { sessions: state.sessions.filter((s) => s.id !== id), current: chat.sessionId };
        },
      ),
    async open(id) {
      set({ current: id });
      await chat.open(id);
    },
    openNew() {
      chat.reset();
      set({ current: undefined });
    },
    sync(now) {
      const moved = !last || last.sessionId !== now.sessionId || last.status !== now.status;
      const first = !last;
      last = { sessionId: now.sessionId, status: now.status };
      if (now.sessionId !== state.current) set({ current: now.sessionId });
      // (The first sync only says where the chat is: the first subscriber loads the list.)
      if (moved && !first && state.status !== 'idle') void refresh();
    },
    destroy() {
      destroyed = true;
      generation++;
      listeners.clear();
    },
  };
}
