import type { ClientAgent } from '@lousho/core/protocol';
import type { ClientTransport } from './types.js';

/**
 * The in-process transport, imported on its first call (every transport call is async already):
 * a page whose client talks HTTP never downloads the agent-side code, since an app bundler puts a
 * module loaded with `import()` in a chunk of its own.
 */
export function createLazyInProcessTransport(agent: ClientAgent): ClientTransport {
  let loading: Promise<ClientTransport> | undefined;
  const loaded = (): Promise<ClientTransport> => (loading ??= import('./in-process-chunk.js').then((module) => module.createInProcessTransport(agent)));
  // Each method loads the transport, then calls its method of the same name (a Proxy: one line
  // for every method, in every browser bundle, instead of one per method).
  return new Proxy({} as ClientTransport, {
    get:
      (_, name: keyof ClientTransport) =>
      async (...args: unknown[]) =>
        ((await loaded())[name] as (...args: unknown[]) => unknown)(...args),
  });
}
