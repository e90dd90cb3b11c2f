import { createSessionList, type SessionList, type SessionListOptions, type SessionListSource, type SessionListState } from '@lousho/client/sessions';
import type { LoushoAgentStore } from '../types.js';

/** What `loushoSessions()` returns: a Svelte store of the list (`$threads.sessions`, ...) with its actions. */
export interface LoushoSessionsStore extends Pick<SessionList, 'refresh' | 'loadMore' | 'rename' | 'remove' | 'open' | 'openNew'> {
  /** Svelte's store contract: `run` gets the list's state now and on every change; returns the unsubscribe. */
  subscribe(run: (value: SessionListState) => void): () => void;
}

/**
 * The principal's threads (sessions), newest activity first, as a Svelte store for a sidebar:
 * `$threads.sessions`, `status`, `error` (with a code), `hasMore`, `current`; `threads.loadMore()`,
 * `refresh()`, `rename()`, `remove()` (delete), `open()` (in the chat) and `openNew()`. `source`
 * is the chat's own (`{ url, headers?, fetch? }` or `{ agent }`) and `agent` the `loushoAgent()`
 * store the threads open in: the list follows it. From `@lousho/svelte/sessions`, so a page
 * without a thread list loads none of it. The first browser subscriber reads the first page; on
 * the server, subscribing only reads the value.
 */
export function loushoSessions(source: SessionListSource, agent: LoushoAgentStore, options: SessionListOptions = {}): LoushoSessionsStore {
  const list = createSessionList(source, agent, options);
  const { refresh, loadMore, rename, remove, open, openNew } = list;
  return {
    refresh,
    loadMore,
    rename,
    remove,
    open,
    openNew,
    subscribe(run) {
      run(list.getSnapshot());
      if (typeof document === 'undefined') return () => {};
      const stopList = list.subscribe(run);
      // Follows the chat: a new thread, a title, a status show as they happen.
      const stopChat = agent.subscribe((value) => list.sync({ sessionId: value.sessionId, status: value.status }));
      return () => {
        stopChat();
        stopList();
      };
    },
  };
}
