import { getCurrentInstance, getCurrentScope, onMounted, onScopeDispose, shallowReactive, shallowReadonly, toRefs, toValue, watch, type MaybeRefOrGetter } from 'vue';
import { createSessionList, type SessionList, type SessionListOptions, type SessionListSource, type SessionListState } from '@lousho/client/sessions';
import type { ReadonlyShallowRef, UseLoushoAgentResult } from '../types.js';

/** The chat a thread list opens threads in: what `useLoushoAgent()` returned. */
export type UseLoushoSessionsChat = Pick<UseLoushoAgentResult, 'sessionId' | 'status' | 'open' | 'reset'>;

/** What `useLoushoSessions()` returns: one read-only ref per field of the list, and its actions. */
export type UseLoushoSessionsResult = { readonly [K in keyof SessionListState]: ReadonlyShallowRef<SessionListState[K]> } & Pick<
  SessionList,
  'refresh' | 'loadMore' | 'rename' | 'remove' | 'open' | 'openNew'
>;

/**
 * The principal's threads (sessions), newest activity first, for a sidebar: `sessions`, `status`,
 * `error` (with a code), `hasMore`, `current` as refs; `loadMore`, `refresh`, `rename`, `remove`
 * (delete), `open` (in the chat) and `openNew`. `source` is the chat's own (`{ url, headers?,
 * fetch? }` or `{ agent }`; headers and fetch may be refs or getters) and `chat` what
 * `useLoushoAgent()` returned: the list follows it. From `@lousho/vue/sessions`, so a page without
 * a thread list loads none of it. The first page is read on mount (in a bare scope, at once).
 */
export function useLoushoSessions(source: MaybeRefOrGetter<SessionListSource>, chat: UseLoushoSessionsChat, options: SessionListOptions = {}): UseLoushoSessionsResult {
  const given = toValue(source);
  // Headers and fetch read from the source as it is at each request.
  const live = {
    ...given,
    get headers() {
      return (toValue(source) as { headers?: never }).headers;
    },
    get fetch() {
      return (toValue(source) as { fetch?: never }).fetch;
    },
  } as SessionListSource;
  const list = createSessionList(live, { get sessionId() { return chat.sessionId.value; }, open: (id) => chat.open(id), reset: () => chat.reset() }, options);

  const fields = shallowReactive({ ...list.getSnapshot() });
  const start = (): void => {
    const stop = list.subscribe((state) => Object.assign(fields, state));
    Object.assign(fields, list.getSnapshot());
    if (getCurrentScope()) onScopeDispose(stop);
  };
  watch([chat.sessionId, chat.status], ([sessionId, status]) => list.sync({ sessionId, status }), { immediate: true });
  if (getCurrentInstance()) onMounted(start);
  else start();
  if (getCurrentScope()) onScopeDispose(list.destroy);

  const { refresh, loadMore, rename, remove, open, openNew } = list;
  return { ...(toRefs(shallowReadonly(fields)) as unknown as UseLoushoSessionsResult), refresh, loadMore, rename, remove, open, openNew };
}
