import { createFetchTransport } from './fetch-transport.js';
import { HTTP_TOOL_ERROR_CODES, HttpToolError } from './http-errors.js';
import type { HostResolver, HttpTransport } from './transport.js';

// Kept in a variable (and marked for Vite and webpack) so browser bundlers do not follow it into
// `node:http`; only a Node-like runtime ever evaluates this import.
const NODE_TRANSPORT_MODULE = '../node/http-transport.js';

interface NodeTransportModule {
  createNodeHttpTransport(options?: { resolve?: HostResolver }): HttpTransport;
}

/** True in Node (and runtimes that provide Node's built-ins: Bun, Deno). */
export function isNodeLikeRuntime(): boolean {
  const versions = (globalThis as { process?: { versions?: { node?: unknown } } }).process?.versions;
  return typeof versions?.node === 'string';
}

/**
 * The transport used when the options name none: in Node the pinned-DNS transport (loaded on first
 * use), elsewhere `fetch` with host-level checks only.
 */
export function createDefaultTransport(resolve?: HostResolver): HttpTransport {
  if (!isNodeLikeRuntime()) {
    if (resolve) {
      throw new HttpToolError(
        HTTP_TOOL_ERROR_CODES.UNSUPPORTED_RUNTIME,
        'The `resolve` option needs the Node transport (node:http), which this runtime does not have.',
      );
    }
    return createFetchTransport();
  }
  let loaded: Promise<HttpTransport> | undefined;
  return async (request) => {
    loaded ??= loadNodeTransport(resolve);
    const transport = await loaded;
    return transport(request);
  };
}

async function loadNodeTransport(resolve?: HostResolver): Promise<HttpTransport> {
  const specifier: string = NODE_TRANSPORT_MODULE;
  let module: NodeTransportModule;
  try {
    module = (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as NodeTransportModule;
  } catch (error) {
    throw new HttpToolError(
      HTTP_TOOL_ERROR_CODES.UNSUPPORTED_RUNTIME,
      'Could not load the Node HTTP transport. If your server code is bundled, pass `transport: createNodeHttpTransport()` (from @lousho/build-ai-agent/node) to createHttpTool().',
      { cause: error },
    );
  }
  return module.createNodeHttpTransport(resolve ? { resolve } : {});
}
