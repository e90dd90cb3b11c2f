import { createClientCore } from './client-core.js';
import { createHttpTransport } from './http-transport.js';
import { createLazyInProcessTransport } from './lazy-in-process-transport.js';
import type { AgentClient, AgentClientOptions, AgentClientSource, ClientTransport, HttpSource, InProcessSource } from './types.js';

/**
 * A framework-neutral client for an agent: in process (`{ agent, sessionId? }`) or behind
 * `createAgentHandler()` (`{ url, sessionId?, headers?, fetch? }`). Creating it does no I/O; the
 * first `subscribe()` (or `start()`, or an action) restores the session. The in-process transport
 * is loaded with `import()` on first use, so an HTTP-only page does not ship it. See docs/http.md.
 */
export function createAgentClient(source: AgentClientSource, options: AgentClientOptions = {}): AgentClient {
  // (Bindings may pass a source with an `agent` or a `url` field that is undefined.)
  const { agent, url } = source as InProcessSource & HttpSource;
  return createClientCore(
    agent ? createLazyInProcessTransport(agent) : createHttpTransport(source as HttpSource),
    source.sessionId,
    options.storageKey ?? (agent ? 'lousho:session' : `lousho:session:${url}`),
    options,
  );
}

/** `createAgentClient({ url, ... })` without the in-process transport, for the smallest browser bundle. */
export function createHttpAgentClient(source: Parameters<typeof createHttpTransport>[0], options: AgentClientOptions = {}): AgentClient {
  return createClientCore(createHttpTransport(source), source.sessionId, options.storageKey ?? `lousho:session:${source.url}`, options);
}

/** A client over your own transport (another protocol, a test double). */
export function createAgentClientWithTransport(transport: ClientTransport, options: AgentClientOptions & { sessionId?: string } = {}): AgentClient {
  return createClientCore(transport, options.sessionId, options.storageKey ?? 'lousho:session', options);
}
