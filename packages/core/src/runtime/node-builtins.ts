import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { nodeProcess } from './node-process.js';

/**
 * A Node built-in module, fetched at run time with `process.getBuiltinModule` (Node 20.16+, Bun,
 * Deno) rather than imported: a module using it can sit in the isomorphic root entry, and a browser
 * bundle of that entry holds no `node:` import. Elsewhere it throws `LOUSHO_UNSUPPORTED_RUNTIME`.
 */
export function nodeBuiltin<T>(id: `node:${string}`, who: string): T {
  const mod = nodeProcess()?.getBuiltinModule?.(id);
  if (!mod) {
    throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_RUNTIME, `${who} needs Node's built-in module ${id}, which this runtime does not provide.`, {
      hint: 'Run it on a server (Node 20.16 or later, Bun or Deno). In a browser, use MemoryWorkspace, or a sandbox reached over the network.',
    });
  }
  return mod as T;
}
