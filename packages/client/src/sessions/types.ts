import type { AgentUIStatus, ClientAgent, SerializedError } from '@lousho/protocol';
import type { HttpSource } from '../types.js';

/** Where a session stands, as the thread list shows it (a session whose process died is `interrupted`). */
export type SessionListStatus = 'idle' | 'running' | 'awaiting-approval' | 'interrupted';

/** Tokens (and cost, when every model used is priced) of every run of a session so far. */
export interface SessionUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** In US dollars; absent as soon as one model used has no known price. */
  costUsd?: number;
}

/** One thread of the list, as `GET /sessions` sends it. */
export interface SessionSummary {
  id: string;
  /** The first user message unless renamed; null before there is one. */
  title: string | null;
  status: SessionListStatus;
  /** Milliseconds since the epoch, by the server's store. */
  createdAt: number;
  /** The last activity (newest first in the list). */
  updatedAt: number;
  /** Null before the first run ended (and for a store that does not keep usage). */
  usage: SessionUsage | null;
}

/** One page of threads; `nextCursor` is where the next page starts (absent on the last). */
export interface SessionSummaryPage {
  sessions: SessionSummary[];
  nextCursor?: string;
}

/** What a thread list reads: the same source as the chat's client (an agent in process, or a handler's URL). */
export type SessionListSource = { agent: ClientAgent } | Pick<HttpSource, 'url' | 'headers' | 'fetch'>;

/** How the thread list reaches the server. Errors carry a stable `code` (`LOUSHO_SESSION_NOT_FOUND`, ...). */
export interface SessionListTransport {
  /** A page of the principal's threads, newest activity first. */
  list(query: { cursor?: string; limit: number }): Promise<SessionSummaryPage>;
  /** Renames a thread. */
  rename(id: string, title: string): Promise<void>;
  /** Deletes a thread, with its events and files. */
  remove(id: string): Promise<void>;
}

/** The chat a thread list opens threads in: the client, or a binding's `useLoushoAgent()` result. */
export interface SessionListChat {
  readonly sessionId: string | undefined;
  /** Shows another thread (none: a new one). */
  open(sessionId?: string): unknown;
  /** Starts a new thread. */
  reset(): unknown;
}

/** The thread list as a UI shows it. */
export interface SessionListState {
  /** The threads loaded so far, newest activity first. */
  sessions: SessionSummary[];
  /** `idle` before the first load; `loading` while a page is read; `error` when the last read failed. */
  status: 'idle' | 'loading' | 'ready' | 'error';
  /** The last failure (of a read, a rename or a delete), with its stable code; cleared by the next success. */
  error: SerializedError | null;
  /** More threads can be loaded (`loadMore()`). */
  hasMore: boolean;
  /** The thread the chat shows (undefined for a new one not sent yet). */
  current: string | undefined;
}

/** What a list action resolves with (they never reject): `ok`, or the error (also in `state.error`). */
export type SessionListResult = { ok: true } | { ok: false; error: SerializedError };

/** Options of `createSessionList()`. */
export interface SessionListOptions {
  /** Threads per page, 1 to 100 (default 20). */
  limit?: number;
  /** Every failure, with its code. */
  onError?: (error: Error & { code: string }) => void;
}

/**
 * A thread list: the threads of the principal the server authorized, paged, kept fresh as the chat
 * moves on, and the actions on them. Framework-neutral; `useLoushoSessions` (React, Vue) and
 * `loushoSessions` (Svelte) are thin layers over it.
 */
export interface SessionList {
  /** The current state: the same object until something changes. */
  getSnapshot(): SessionListState;
  /** Calls `listener` on each change; the first subscriber loads the first page. */
  subscribe(listener: (state: SessionListState) => void): () => void;
  /** Reads the list again from the top, as many threads as are shown (at least a page, at most 100). */
  refresh(): Promise<SessionListResult>;
  /** Reads the next page and appends it. */
  loadMore(): Promise<SessionListResult>;
  /** Sets a thread's title (trimmed, 1 to 100 characters, else `LOUSHO_SESSION_TITLE_INVALID`). */
  rename(sessionId: string, title: string): Promise<SessionListResult>;
  /**
   * Deletes a thread (`LOUSHO_SESSION_BUSY` while it runs a turn: stop it first). Deleting the one
   * the chat shows starts a new one there.
   */
  remove(sessionId: string): Promise<SessionListResult>;
  /** Opens a thread in the chat (its running turn is followed live). */
  open(sessionId: string): Promise<void>;
  /** Starts a new thread in the chat. */
  openNew(): void;
  /**
   * Tells the list where the chat is (bindings call it on each change): a change of thread or of
   * status reads the first page again, so new threads, titles and statuses show.
   */
  sync(chat: { sessionId: string | undefined; status: AgentUIStatus }): void;
  /** Drops the listeners; reads still under way change nothing. */
  destroy(): void;
}
