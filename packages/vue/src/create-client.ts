import { createAgentClientWithTransport, createHttpAgentClient, type AgentClient, type AgentClientOptions, type AgentClientSource, type ClientAgent, type ClientTransport } from '@lousho/core';

/** The in-process transport, imported on first use: every transport call is async already. */
function lazyInProcessTransport(agent: ClientAgent): ClientTransport {
  let loading: Promise<ClientTransport> | undefined;
  // Any method of the transport: loads it, then calls the method of the same name.
  return new Proxy({} as ClientTransport, {
    get:
      (_, method: keyof ClientTransport) =>
      async (...args: unknown[]) =>
        ((await (loading ??= import('./in-process.js').then((module) => module.createInProcessTransport(agent))))[method] as (...args: unknown[]) => Promise<unknown>)(...args),
  });
}

/**
 * The client for a source: the HTTP-only client for `{ url }`, the in-process one for `{ agent }`.
 * The same as `createAgentClient(source, options)`, minus the in-process code in HTTP-only bundles.
 */
export function createClient(source: AgentClientSource, options: AgentClientOptions): AgentClient {
  return 'agent' in source
    ? createAgentClientWithTransport(lazyInProcessTransport(source.agent), { ...options, sessionId: source.sessionId })
    : createHttpAgentClient(source, options);
}
