import { useEffect, useInsertionEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createSessionList, type SessionList, type SessionListChat, type SessionListOptions, type SessionListSource, type SessionListState } from '@lousho/client/sessions';

/** The chat a thread list opens threads in: what `useLoushoAgent()` returns. */
export type UseLoushoSessionsChat = SessionListChat & { readonly status: Parameters<SessionList['sync']>[0]['status'] };

/** What `useLoushoSessions()` returns: the list as rendered now, and its actions (stable). */
export type UseLoushoSessionsResult = SessionListState & Pick<SessionList, 'refresh' | 'loadMore' | 'rename' | 'remove' | 'open' | 'openNew'>;

/**
 * The principal's threads (sessions), newest activity first, for a sidebar: paged (`loadMore`),
 * `refresh`, `rename`, `remove` (delete), `open` (in the chat) and `openNew`; errors with codes in
 * `error`. `source` is the chat's own (`{ url, headers?, fetch? }` or `{ agent }`) and `chat` what
 * `useLoushoAgent()` returned: the list follows it (a new thread, a title, a status show as they
 * happen). Imported from `@lousho/react/sessions`, so a page without a thread list loads none of it.
 * The first page is read on mount (never while rendering on the server).
 */
export function useLoushoSessions(source: SessionListSource, chat: UseLoushoSessionsChat, options: SessionListOptions = {}): UseLoushoSessionsResult {
  // The latest committed source and chat, read when the list uses them.
  const live = useRef({ source, chat });
  useInsertionEffect(() => {
    live.current = { source, chat };
  });
  const key = (source as { agent?: unknown }).agent ?? (source as { url?: string }).url;
  const [held, setHeld] = useState(() => ({ key, list: makeList(live, options) }));
  let { list } = held;
  if (!Object.is(held.key, key)) {
    list = makeList(live, options);
    setHeld({ key, list });
  }

  useEffect(() => {
    list.sync({ sessionId: chat.sessionId, status: chat.status });
  }, [list, chat.sessionId, chat.status]);

  const state = useSyncExternalStore(list.subscribe, list.getSnapshot, list.getSnapshot);
  const { refresh, loadMore, rename, remove, open, openNew } = list;
  return { ...state, refresh, loadMore, rename, remove, open, openNew };
}

/** A list over getters of the live source and chat (headers, fetch and the chat's actions as they are now). */
function makeList(live: { current: { source: SessionListSource; chat: UseLoushoSessionsChat } }, options: SessionListOptions): SessionList {
  const { source } = live.current;
  const liveSource = {
    ...source,
    get headers() {
      return (live.current.source as { headers?: never }).headers;
    },
    get fetch() {
      return (live.current.source as { fetch?: never }).fetch;
    },
  } as SessionListSource;
  return createSessionList(
    liveSource,
    {
      get sessionId() {
        return live.current.chat.sessionId;
      },
      open: (id) => live.current.chat.open(id),
      reset: () => live.current.chat.reset(),
    },
    options,
  );
}
