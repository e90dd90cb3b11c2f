import { getCurrentInstance, getCurrentScope, onMounted, onScopeDispose, shallowReadonly, shallowRef, toRaw, toValue, watch, type MaybeRefOrGetter, type ShallowRef } from 'vue';
import { createAgentClient, type AgentClient, type AgentClientOptions, type AgentClientSource, type ClientAgent, type HttpSource } from '@lousho/core';
import type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, UseLoushoAgentOptions, UseLoushoAgentResult } from './types.js';

type Source = MaybeRefOrGetter<LoushoAgentSource>;

/** The refs the composable returns, in order: the state's fields and the session id. */
const FIELDS = ['messages', 'status', 'pendingApproval', 'error', 'usage', 'finishReason', 'sessionId'] as const;
type Field = (typeof FIELDS)[number];
/** The client's actions the composable passes on (`reset` also shows the new state at once). */
const ACTIONS = ['send', 'stop', 'approve', 'reject', 'answer'] as const;

/** A source with its refs read: what one client is made for. */
type Resolved = LoushoInProcessSource & Omit<LoushoHttpSource, 'url'> & { url?: string; sessionId?: string };

/** The source with its refs read. (`ref({ agent })` or `reactive()` would hand over a reactive proxy of the agent: the agent itself is used.) */
function resolve(source: Source): Resolved {
  const given = toValue(source) as Partial<Resolved>;
  return { ...given, agent: toRaw(given.agent)!, url: toValue(given.url), sessionId: toValue(given.sessionId) };
}

/** What a client is made for: a change of any of these means a new client. */
const clientKey = (source: Resolved, options: UseLoushoAgentOptions): unknown[] => [source.agent ?? source.url, source.sessionId, source.storageKey ?? options.storageKey];

/**
 * Whether the client can stay for the new key: the same agent or URL and storage key, and a
 * session id that changed to the one the client already follows (an app that puts the id the
 * first `send` made into its route, then passes it back).
 */
const keeps = (client: AgentClient, held: unknown[], key: unknown[]): boolean =>
  key.every((value, i) => Object.is(value, held[i]) || (i === 1 && value !== undefined && value === client.sessionId));

/**
 * A client for `resolved`. Creating it does no I/O (safe while rendering on the server); the first
 * subscription restores the session. The client reads callbacks from `options` (its options'
 * prototype) when it calls them, and headers and fetch from the source as it is at each request
 * (an in-process client never reads them).
 */
function makeClient(resolved: Resolved, options: UseLoushoAgentOptions, source: Source): AgentClient {
  const current = () => toValue(source) as Partial<HttpSource>;
  return createAgentClient(
    {
      ...resolved,
      get headers() {
        return current().headers;
      },
      get fetch() {
        return current().fetch;
      },
    } as AgentClientSource,
    { __proto__: options, storage: resolved.storage ?? options.storage, storageKey: resolved.storageKey ?? options.storageKey } as AgentClientOptions,
  );
}

/**
 * The conversation with an agent, in process (`{ agent, sessionId? }`) or over HTTP
 * (`{ url, sessionId?, headers?, fetch?, storage?, storageKey? }`), as read-only shallow refs.
 *
 * A thin layer over the framework-neutral client: one client per session, its snapshot copied into
 * one shallow ref per field (a ref changes only when its field does). The source, or its `url` and
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
  let key: unknown[] | undefined;
  let client!: AgentClient;
  let unsubscribe: (() => void) | undefined;
  let following = false;

  // One shallow ref per field; a shallow ref skips a write of the same value, so a streaming token
  // only touches `messages`.
  const refs = {} as Record<Field, ShallowRef<unknown>>;
  const show = (): void => {
    const state = client.getSnapshot();
    for (const field of FIELDS) (refs[field] ??= shallowRef()).value = field === 'sessionId' ? client.sessionId : state[field];
  };
  // (An unsubscribe left over from a destroyed client does nothing: `destroy()` dropped its listeners.)
  const follow = (): void => {
    unsubscribe?.();
    unsubscribe = client.subscribe(show);
    show();
  };

  /** A client for the source as it is now, unless the one there is for the same session. */
  const connect = (): void => {
    const resolved = resolve(source);
    const next = clientKey(resolved, options);
    const old = key;
    key = next;
    if (old) {
      if (keeps(client, old, next)) return;
      client.destroy();
    }
    client = makeClient(resolved, options, source);
    show();
    if (following) follow();
  };
  connect();
  // Another session: a new client (not watched on the server, where Vue runs no lazy watcher).
  watch(() => clientKey(resolve(source), options), connect);

  const start = (): void => {
    following = true;
    follow();
  };
  if (getCurrentInstance()) onMounted(start);
  else start();
  if (getCurrentScope()) {
    onScopeDispose(() => {
      following = false;
      client.destroy();
    });
  }

  const result = {} as Record<string, unknown>;
  for (const field of FIELDS) result[field] = shallowReadonly(refs[field]);
  // Plain functions, the same for the composable's lifetime, always acting on the current session.
  for (const action of ACTIONS) result[action] = (...args: unknown[]) => (client[action] as (...args: unknown[]) => unknown)(...args);
  result.reset = () => {
    client.reset();
    show();
  };
  return result as unknown as UseLoushoAgentResult;
}
