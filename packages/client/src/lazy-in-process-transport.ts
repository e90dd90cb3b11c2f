import type { ClientAgent } from '@lousho/protocol';
import type { ClientTransport } from './types.js';

/**
 * The in-process transport, imported on its first call (every transport call is async already):
 * a page whose client talks HTTP never downloads the agent-side code, since an app bundler puts a
 * module loaded with `import()` in a chunk of its own.
 */
export function createLazyInProcessTransport(agent: ClientAgent): ClientTransport {
  let loading: Promise<ClientTransport> | undefined;
  const loaded = (): Promise<ClientTransport> => (loading ??= import('./in-process-chunk.js').then((module) => module.createInProcessTransport(agent)));
  // Each method loads the transport, then calls its method of the same name.
  const lazy = {} as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['load', 'send', 'decide', 'follow', 'resume', 'stop', 'upload', 'queue']) lazy[name] = async (...args) => ((await loaded()) as any)[name](...args);
  return lazy as unknown as ClientTransport;
}
