import { useEffect, useInsertionEffect, useRef, useState, useSyncExternalStore } from 'react';
import { createAgentClient, type AgentClient, type AgentClientOptions, type ClientAgent } from '@lousho/client';
import type { LoushoAgentSource, LoushoHttpSource, LoushoInProcessSource, ToolPartFor, UseLoushoAgentOptions, UseLoushoAgentResult } from './types.js';

/** A client, what it was made for, and the source and options it reads (kept current by the hook). */
interface Held {
  key: unknown[];
  client: AgentClient;
  source: LoushoAgentSource;
  options: AgentClientOptions;
}

/** What a client is made for: a change of any of these means a new client. */
const clientKey = (source: LoushoAgentSource, options: UseLoushoAgentOptions): unknown[] => [
  (source as LoushoInProcessSource).agent ?? (source as LoushoHttpSource).url,
  source.sessionId,
  (source as LoushoHttpSource).storageKey ?? options.storageKey,
];

/**
 * Whether the client can stay for the new key: the same agent or URL and storage key, and a
 * session id that changed to the one the client already follows (an app that puts the id the
 * first `send` made into its route, then passes it back).
 */
const keeps = (held: unknown[], key: unknown[], client?: AgentClient): boolean =>
  key.every((value, i) => Object.is(value, held[i]) || (i === 1 && value !== undefined && value === client?.sessionId));

/**
 * A client for `source`. Creating it does no I/O (safe while rendering on the server); the first
 * subscription restores the session. The client gets copies of the source and the options, and
 * reads callbacks, headers and fetch from them when it uses them: the hook updates the copies on
 * every commit, so these may change on every render without a new client.
 */
function makeClient(source: LoushoAgentSource, options: UseLoushoAgentOptions): Held {
  const live = { ...source } as LoushoHttpSource;
  const clientOptions: AgentClientOptions = { ...options, storage: live.storage ?? options.storage, storageKey: live.storageKey ?? options.storageKey };
  return { key: clientKey(source, options), client: createAgentClient(live, clientOptions), source: live, options: clientOptions };
}

/**
 * The conversation with an agent, in process (`{ agent, sessionId? }`) or over HTTP
 * (`{ url, sessionId?, headers?, fetch?, storage?, storageKey? }`), as React state.
 *
 * A thin layer over the framework-neutral client: `useSyncExternalStore` on its snapshot, one client
 * per session (a new `url`, `agent`, `storageKey` or `sessionId` makes a new one and destroys the
 * old; passing back the id the client made for itself keeps it). Unmounting only detaches (the run
 * goes on on the server); mounting again on the session picks it up. Keep `agent` stable (made
 * once, outside the component or in state): a new agent object is a new conversation.
 *
 * Typed from the agent: `useLoushoAgent({ agent })` or `useLoushoAgent<typeof agent>(...)` narrows
 * tool parts on `toolName` when the agent's type names its tools; `useLoushoAgent<typeof weather |
 * typeof email>(...)` does the same from the tools themselves.
 */
export function useLoushoAgent<A extends ClientAgent>(source: LoushoInProcessSource<A>, options?: UseLoushoAgentOptions): UseLoushoAgentResult<ToolPartFor<A>>;
export function useLoushoAgent<T = unknown>(source: LoushoAgentSource, options?: UseLoushoAgentOptions): UseLoushoAgentResult<ToolPartFor<T>>;
export function useLoushoAgent(source: LoushoAgentSource, options: UseLoushoAgentOptions = {}): UseLoushoAgentResult {
  const key = clientKey(source, options);
  const [initial, setHeld] = useState(() => makeClient(source, options));
  let held = initial;
  if (!keeps(held.key, key)) {
    // Another session: a new client now (React re-renders with it at once); the old one is
    // destroyed once this commits.
    held = keeps(held.key, key, held.client) ? { ...held, key } : makeClient(source, options);
    setHeld(held);
  }
  const client = held.client;

  // Committed props only (a render React throws away must not leak its callbacks).
  // (An in-process source gets `headers` and `fetch` too, and never reads them.)
  useInsertionEffect(() => {
    const { onEvent, onFinish, onError } = options;
    Object.assign(held.options, { onEvent, onFinish, onError });
    Object.assign(held.source, { headers: (source as LoushoHttpSource).headers, fetch: (source as LoushoHttpSource).fetch });
  });

  const previous = useRef<AgentClient | undefined>(undefined);
  useEffect(() => {
    const old = previous.current;
    previous.current = client;
    if (old && old !== client) old.destroy();
  }, [client]);

  // The snapshot's fields but the reducer's bookkeeping (a field a later state gains comes along),
  // then the client's session id as it is now and its actions.
  const { getSnapshot, subscribe, sessionId, send, unqueue, stop, resume, approve, reject, answer, submitToolResult, reset, open, upload } = client;
  const { lastSeq: _lastSeq, runId: _runId, ...state } = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);
  return { ...state, sessionId, send, unqueue, stop, resume, approve, reject, answer, submitToolResult, reset, open, upload };
}
