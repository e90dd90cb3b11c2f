// What `#stdio-server` resolves to in browsers and edge workers: there is no stdin to serve on.
import { ERROR_CODES, SDKError } from '@lousho/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export function stdioServerTransport(_maxMessageBytes: number): Transport {
  throw new SDKError(ERROR_CODES.LOUSHO_UNSUPPORTED_RUNTIME, 'serveStdio() needs Node.js (a process with stdin and stdout).', {
    hint: 'In a browser or a worker, serve the agent over HTTP: mount server.fetch.',
  });
}
