import { createAgentClientWithTransport, createHttpAgentClient, type AgentClient, type AgentClientOptions, type AgentClientSource, type ClientAgent, type ClientTransport } from '@lousho/core';

const METHODS = ['load', 'send', 'decide', 'follow', 'stop'] as const;

/** The in-process transport, imported on first use: every transport call is async already. */
function lazyInProcessTransport(agent: ClientAgent): ClientTransport {
  let loading: Promise<ClientTransport> | undefined;
  const transport = {} as Record<(typeof METHODS)[number], (...args: unknown[]) => Promise<unknown>>;
  for (const method of METHODS) {
    transport[method] = async (...args) => {
      const loaded = await (loading ??= import('./in-process.js').then((module) => module.createInProcessTransport(agent)));
      return (loaded[method] as (...args: unknown[]) => Promise<unknown>)(...args);
    };
  }
  return transport as unknown as ClientTransport;
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
