import { getCurrentInstance, onMounted, shallowReactive, shallowReadonly, toRaw, toRefs, toValue, watch, type MaybeRefOrGetter } from 'vue';
import { createAgentClient, type AgentClient, type AgentClientOptions, type AgentClientSource, type ClientAgent, type HttpSource } from '@lousho/client';
import type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, UseLoushoAgentOptions, UseLoushoAgentResult } from './types.js';

type Source = MaybeRefOrGetter<LoushoAgentSource>;

/** A source with its refs read, over the options: what one client is made for (its source and its options at once). */
type Resolved = LoushoInProcessSource & Omit<LoushoHttpSource, 'url'> & { url?: string; sessionId?: string } & AgentClientOptions;
/** The client's actions the composable passes on (`reset` also shows the new state at once). */
const ACTIONS = ['send', 'unqueue', 'stop', 'resume', 'approve', 'reject', 'answer', 'submitToolResult', 'upload'] as const;

/**
 * The conversation with an agent, in process (`{ agent, sessionId? }`) or over HTTP
 * (`{ url, sessionId?, headers?, fetch?, storage?, storageKey? }`), as read-only shallow refs.
 *
 * A thin layer over the framework-neutral client: one client per session, its snapshot copied into
 * one read-only ref per field (a ref changes only when its field does). The source, or its `url` and
 * `sessionId`, may be refs or getters: a new session makes a new client and destroys the old one
 * (passing back the id the client made for itself keeps it). In a component, following starts on
 * mount, so server rendering shows the initial state and fetches nothing; in a bare `effectScope()`
 * it starts at once. Disposing the scope stops following; the run goes on, and a new composable on
 * the session picks it up. Keep `agent` stable: a new agent object is a new conversation.
 *
 * Typed from the agent: `useLoushoAgent({ agent })` or `useLoushoAgent<typeof agent>(...)` narrows
 * tool parts on `toolName` when the agent's type names its tools; `useLoushoAgent<typeof weather |
 * typeof email>(...)` does the same from the tools themselves.
 */
export function useLoushoAgent<A extends ClientAgent>(source: MaybeRefOrGetter<LoushoInProcessSource<A>>, options?: UseLoushoAgentOptions): UseLoushoAgentResult<ToolPartFor<A>>;
export function useLoushoAgent<T = unknown>(source: MaybeRefOrGetter<LoushoAgentSource>, options?: UseLoushoAgentOptions): UseLoushoAgentResult<ToolPartFor<T>>;
export function useLoushoAgent(source: Source, options: UseLoushoAgentOptions = {}): UseLoushoAgentResult {
  /** What the current client was made for (updated when a passed-back session id keeps it). */
  let held: Resolved | undefined;
  let client!: AgentClient;
  /** Set once following has started (never called: destroying a client drops its listeners). */
  let unsubscribe: (() => void) | undefined;

  // The fields, in a shallow reactive object (a write of the same value triggers nothing, so a
  // streaming token only touches `messages`); one ref per field is returned, each read-only.
  // (`queued` is there from the start, as the refs are made once: a state has it only once a message waited.)
  const fields = shallowReactive<Record<string, unknown>>({ queued: undefined });
  const show = (): void => {
    // The snapshot's fields but the reducer's bookkeeping.
    const { lastSeq: _lastSeq, runId: _runId, ...state } = client.getSnapshot();
    Object.assign(fields, state, { sessionId: client.sessionId });
  };
  const follow = (): void => {
    unsubscribe = client.subscribe(show);
    show();
  };

  // The client for the source as it is: the one there while it is for the same session, else a
  // new one (creating one does no I/O). Run at once, on the server too (where Vue then stops the
  // watcher: nothing is watched there), then on every change of what the getter reads.
  watch(
    () => {
      const given = toValue(source) as Partial<Resolved>;
      // (`ref({ agent })` or `reactive()` would hand over a reactive proxy of the agent: the agent
      // itself is used.) The client reads callbacks from `options` (the prototype) when it calls
      // them, and headers and fetch from the source as it is at each request (an in-process client
      // never reads them).
      const resolved = {
        __proto__: options,
        ...given,
        agent: toRaw(given.agent)!,
        url: toValue(given.url),
        sessionId: toValue(given.sessionId),
        storage: given.storage ?? options.storage,
        storageKey: given.storageKey ?? options.storageKey,
        get headers() {
          return (toValue(source) as Partial<HttpSource>).headers;
        },
        get fetch() {
          return (toValue(source) as Partial<HttpSource>).fetch;
        },
      } as Resolved;
      const old = held;
      held = resolved;
      // The same agent or URL and storage key, and the same session id or the one the client now
      // follows (an app that puts the id the first `send` made into its route, then passes it back).
      const id = resolved.sessionId;
      return old &&
        (old.agent ?? old.url) === (resolved.agent ?? resolved.url) &&
        old.storageKey === resolved.storageKey &&
        (id === old.sessionId || (id !== undefined && id === client.sessionId))
        ? client
        : createAgentClient(resolved as AgentClientSource, resolved);
    },
    // Another client: the old one is destroyed first (the cleanup), as is the last one when the
    // scope is disposed.
    (next, _, onCleanup) => {
      client = next;
      onCleanup(next.destroy);
      if (unsubscribe) follow();
      else show();
    },
    { immediate: true },
  );

  // In a component, following starts on mount (never on the server); in a bare scope, now.
  if (getCurrentInstance()) onMounted(follow);
  else follow();

  // (Refs of a read-only view: writing one warns and changes nothing; reading one still tracks.)
  const result = toRefs(shallowReadonly(fields)) as Record<string, unknown>;
  // Plain functions, the same for the composable's lifetime, always acting on the current session.
  for (const action of ACTIONS) result[action] = (...args: unknown[]) => (client[action] as (...args: unknown[]) => unknown)(...args);
  result.reset = () => {
    client.reset();
    show();
  };
  // (Shows the emptied state at once too; the session's arrives when it is read.)
  result.open = (id?: string) => {
    const opened = client.open(id);
    show();
    return opened;
  };
  return result as unknown as UseLoushoAgentResult;
}
