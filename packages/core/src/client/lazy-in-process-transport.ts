import type { ClientAgent, ClientTransport } from './types.js';

/**
 * The in-process transport, imported on its first call (every transport call is async already):
 * a page whose client talks HTTP never downloads the agent-side code, since an app bundler puts a
 * module loaded with `import()` in a chunk of its own.
 */
export function createLazyInProcessTransport(agent: ClientAgent): ClientTransport {
  let loading: Promise<ClientTransport> | undefined;
  // Any method of the transport: loads it, then calls the method of the same name.
  return new Proxy({} as ClientTransport, {
    get:
      (_, method: keyof ClientTransport) =>
      async (...args: unknown[]) =>
        ((await (loading ??= import('./in-process-chunk.js').then((module) => module.createInProcessTransport(agent))))[method] as (...args: unknown[]) => Promise<unknown>)(...args),
  });
}
