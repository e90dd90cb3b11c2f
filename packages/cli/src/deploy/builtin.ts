import { getAdapter, registerAdapter } from '@lousho/core';
import { dockerAdapter } from './docker-target.js';
import { nodeAdapter } from './node-target.js';
import { workersAdapter } from './workers-target.js';

export const BUILTIN_ADAPTERS = [nodeAdapter, dockerAdapter, workersAdapter];

/** Registers `node`, `docker` and `workers` (once; a target you registered under a name first wins). */
export function registerBuiltinAdapters(): void {
  for (const adapter of BUILTIN_ADAPTERS) if (!getAdapter(adapter.name)) registerAdapter(adapter);
}
