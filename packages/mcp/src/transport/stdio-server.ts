// Node only (the process's stdin and stdout): loaded with import() by `serveStdio()`, so the
// package root stays usable in a browser bundle.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * The SDK's stdio server transport on this process, keeping at most `maxMessageBytes` of unread
 * input: a client that sends a longer line gets its connection closed (the SDK's own bound). The
 * end of stdin (the client went away) closes it too, which the SDK's transport does not notice.
 */
export function stdioServerTransport(maxMessageBytes: number): Transport {
  const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: maxMessageBytes });
  process.stdin.once('end', () => void transport.close());
  return transport;
}
