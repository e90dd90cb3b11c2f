import { getCurrentInstance, getCurrentScope, onMounted, onScopeDispose, shallowReadonly, shallowRef, toRaw, toValue, watch, type MaybeRefOrGetter, type ShallowRef } from 'vue';
import type { AgentClient, AgentClientOptions, AgentClientSource, AgentUIState, ClientAgent, HttpSource } from '@lousho/core';
import { createClient } from './create-client.js';
import type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, UseLoushoAgentOptions, UseLoushoAgentResult } from './types.js';

type Source = MaybeRefOrGetter<LoushoAgentSource>;

/** The refs the composable returns, in order: the state's fields and the session id. */
const FIELDS = ['messages', 'status', 'pendingApproval', 'error', 'usage', 'finishReason', 'sessionId'] as const;
type Field = (typeof FIELDS)[number];
/** The client's actions the composable passes on (`reset` also shows the new state at once). */
const ACTIONS = ['send', 'stop', 'approve', 'reject', 'answer'] as const;

/** A source with its refs read: what one client is made for. */
type Resolved = AgentClientSource & Pick<LoushoHttpSource, 'storage' | 'storageKey'>;

function resolve(source: Source): Resolved {
  const given = toValue(source);
  const sessionId = toValue(given.sessionId);
  const session = sessionId === undefined ? {} : { sessionId };
  // `ref({ agent })` or `reactive()` would hand over a reactive proxy of the agent: use the agent itself.
  if ('agent' in given) return { agent: toRaw(given.agent), ...session };
  const { url, sessionId: _sessionId, ...rest } = given;
  return { ...rest, url: toValue(url), ...session };
}

/** What a client is made for: a change of any of these means a new client. */
function clientKey(source: Resolved, options: UseLoushoAgentOptions): unknown[] {
  return ['agent' in source ? source.agent : source.url, source.sessionId, ('url' in source ? source.storageKey : undefined) ?? options.storageKey];
}

/**
 * Whether the client can stay for the new key: the same agent or URL and storage key, and a
 * session id that changed to the one the client already follows (an app that puts the id the
 * first `send` made into its route, then passes it back).
 */
const keeps = (client: AgentClient, held: unknown[], key: unknown[]): boolean =>
  key.every((value, i) => Object.is(value, held[i]) || (i === 1 && value !== undefined && value === client.sessionId));

/**
 * A client for `resolved`. Creating it does no I/O (safe while rendering on the server); the first
 * subscription restores the session. Callbacks are read from `options`, headers and fetch from the
 * source as it is at each request.
 */
function makeClient(resolved: Resolved, options: UseLoushoAgentOptions, source: Source): AgentClient {
  const http = 'url' in resolved ? resolved : undefined;
  const clientOptions: AgentClientOptions = {
    ...options,
    storage: http?.storage ?? options.storage,
    storageKey: http?.storageKey ?? options.storageKey,
    onEvent: (event) => options.onEvent?.(event),
    onFinish: (info) => options.onFinish?.(info),
    onError: (error) => options.onError?.(error),
  };
  if (!http) return createClient(resolved, clientOptions);
  const current = (): Pick<HttpSource, 'headers' | 'fetch'> => {
    const latest = toValue(source);
    return 'url' in latest ? latest : http;
  };
  return createClient(
    {
      ...http,
      headers: () => {
        const headers = current().headers;
        return (typeof headers === 'function' ? headers() : headers) ?? {};
      },
      fetch: (input, init) => (current().fetch ?? fetch)(input, init),
    },
    clientOptions,
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
  const initial = resolve(source);
  let key = clientKey(initial, options);
  let client = makeClient(initial, options, source);
  let unsubscribe: (() => void) | undefined;
  let following = false;

  // One shallow ref per field; a shallow ref skips a write of the same value, so a streaming token
  // only touches `messages`.
  const refs = {} as Record<Field, ShallowRef<unknown>>;
  const show = (state: AgentUIState): void => {
    for (const field of FIELDS) (refs[field] ??= shallowRef()).value = field === 'sessionId' ? client.sessionId : state[field];
  };
  show(client.getSnapshot());
  const follow = (): void => {
    unsubscribe?.();
    unsubscribe = client.subscribe(show);
    show(client.getSnapshot());
  };
  const detach = (): void => {
    unsubscribe?.();
    unsubscribe = undefined;
    client.destroy();
  };

  // Another session: a new client (not watched on the server, where Vue runs no lazy watcher).
  watch(
    () => clientKey(resolve(source), options),
    (next) => {
      if (next.every((value, i) => Object.is(value, key[i]))) return;
      const kept = keeps(client, key, next);
      key = next;
      if (kept) return;
      detach();
      client = makeClient(resolve(source), options, source);
      show(client.getSnapshot());
      if (following) follow();
    },
  );

  const start = (): void => {
    following = true;
    follow();
  };
  if (getCurrentInstance()) onMounted(start);
  else start();
  if (getCurrentScope()) {
    onScopeDispose(() => {
      following = false;
      detach();
    });
  }

  const result = {} as Record<string, unknown>;
  for (const field of FIELDS) result[field] = shallowReadonly(refs[field]);
  // Plain functions, the same for the composable's lifetime, always acting on the current session.
  for (const action of ACTIONS) result[action] = (...args: unknown[]) => (client[action] as (...args: unknown[]) => unknown)(...args);
  result.reset = () => {
    client.reset();
    show(client.getSnapshot());
  };
  return result as unknown as UseLoushoAgentResult;
}
