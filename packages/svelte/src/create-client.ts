import { createAgentClientWithTransport, createHttpTransport, createLazyInProcessTransport, type AgentClient, type AgentClientOptions, type AgentUIState, type ClientTransport } from '@lousho/client';
import type { LoushoAgentSource, LoushoHttpSource } from './types.js';

/**
 * The transport with the server's reading of the session as its first `load`: the client restores
 * from it without a request, and follows the turn from its `lastSeq` when one is running.
 */
function seeded(transport: ClientTransport, sessionId: string, state: AgentUIState): ClientTransport {
  let seed: AgentUIState | undefined = state;
  // The other methods are the transport's own.
  return {
    ...transport,
    load(id, signal) {
      const first = seed;
      seed = undefined;
      return first && id === sessionId ? Promise.resolve({ state: first, running: first.status === 'submitted' || first.status === 'streaming' }) : transport.load(id, signal);
    },
  };
}

/**
 * The client for a source, seeded with `initialState` when the client starts on a session. The HTTP
 * client for `{ url }` (no in-process code in the bundle), the in-process one for `{ agent }`.
 * `storage` and `storageKey` may come with an HTTP source; they win over the options'.
 */
export function createClient(source: LoushoAgentSource, options: AgentClientOptions, initialState: AgentUIState | undefined): { client: AgentClient; seed: AgentUIState | undefined } {
  const http = 'url' in source;
  const { url, storage = options.storage, storageKey = options.storageKey ?? (http ? `lousho:session:${url}` : 'lousho:session') } = source as Partial<LoushoHttpSource>;
  const transport = http ? createHttpTransport(source) : createLazyInProcessTransport(source.agent);
  // Where the client will start: the given session, else the one storage remembers.
  let sessionId = source.sessionId;
  if (sessionId === undefined && initialState) {
    try {
      sessionId = storage?.getItem(storageKey) ?? undefined;
    } catch {
      // blocked storage: the client finds nothing either
    }
  }
  const seed = sessionId !== undefined ? initialState : undefined;
  const client = createAgentClientWithTransport(seed ? seeded(transport, sessionId!, seed) : transport, { ...options, storage, storageKey, sessionId: source.sessionId });
  return { client, seed };
}
