import { useEffect, useInsertionEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { AgentClient, AgentClientOptions, ClientAgent } from '@lousho/core';
import { createClient } from './create-client.js';
import type { LoushoAgentSource, LoushoInProcessSource, ToolPartFor, UseLoushoAgentOptions, UseLoushoAgentResult } from './types.js';

interface Latest {
  source: LoushoAgentSource;
  options: UseLoushoAgentOptions;
}

/** What a client is made for: a change of any of these means a new client. */
function clientKey(source: LoushoAgentSource, options: UseLoushoAgentOptions): unknown[] {
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
 * A client for `source`. Creating it does no I/O (safe while rendering on the server); the first
 * subscription restores the session. Callbacks, headers and fetch are read from `latest` when used,
 * so they may change on every render without a new client.
 */
function makeClient(source: LoushoAgentSource, options: UseLoushoAgentOptions, latest: { current: Latest }): AgentClient {
  const http = 'url' in source ? source : undefined;
  const clientOptions: AgentClientOptions = {
    ...options,
    storage: http?.storage ?? options.storage,
    storageKey: http?.storageKey ?? options.storageKey,
    onEvent: (event) => latest.current.options.onEvent?.(event),
    onFinish: (info) => latest.current.options.onFinish?.(info),
    onError: (error) => latest.current.options.onError?.(error),
  };
  if (!http) return createClient(source, clientOptions);
  const current = () => latest.current.source as typeof http;
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
  const latest = useRef<Latest>({ source, options });
  // Committed props only (a render React throws away must not leak its callbacks).
  useInsertionEffect(() => {
    latest.current = { source, options };
  });

  const key = clientKey(source, options);
  const [held, setHeld] = useState(() => ({ key, client: makeClient(source, options, latest) }));
  let client = held.client;
  if (key.some((value, i) => !Object.is(value, held.key[i]))) {
    // Another session: a new client now (React re-renders with it at once); the old one is
    // destroyed once this commits.
    if (!keeps(client, held.key, key)) client = makeClient(source, options, latest);
    setHeld({ key, client });
  }

  const previous = useRef<AgentClient | undefined>(undefined);
  useEffect(() => {
    const old = previous.current;
    previous.current = client;
    if (old && old !== client) old.destroy();
  }, [client]);

  const state = useSyncExternalStore(client.subscribe, client.getSnapshot, client.getSnapshot);
  return {
    messages: state.messages,
    status: state.status,
    pendingApproval: state.pendingApproval,
    error: state.error,
    usage: state.usage,
    finishReason: state.finishReason,
    sessionId: client.sessionId,
    send: client.send,
    stop: client.stop,
    approve: client.approve,
    reject: client.reject,
    answer: client.answer,
    reset: client.reset,
  };
}
