// Node only (child processes): loaded with import() when a stdio server is connected, so the
// package root stays usable in a browser bundle.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { McpStdioServerConfig } from '@lousho/core';
import { BoundedReadBuffer } from './bounded-read-buffer.js';
import { PendingRequests } from './oversized.js';

/** The SDK's stdio transport with a line reader that keeps at most `maxMessageBytes` of one message. */
class BoundedStdioTransport extends StdioClientTransport {
  readonly #pending = new PendingRequests();

  constructor(params: ConstructorParameters<typeof StdioClientTransport>[0], maxMessageBytes: number) {
    super(params);
    // The SDK reads stdout through this field (`_readBuffer.append`, `.readMessage`, `.clear`);
    // stdio.test.ts checks that an oversized result still ends its call with the size error.
    (this as unknown as { _readBuffer: BoundedReadBuffer })._readBuffer = new BoundedReadBuffer(maxMessageBytes, this.#pending);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    this.#pending.sent(message);
    return super.send(message);
  }
}

/** A transport that starts the server; its stderr lines go to `onStderr`, never to the host's stdout or stderr. */
export function stdioTransport(config: McpStdioServerConfig, onStderr: (line: string) => void, maxMessageBytes: number): StdioClientTransport {
  const transport = new BoundedStdioTransport(
    {
      command: config.command,
      args: [...(config.args ?? [])],
      ...(config.env ? { env: { ...config.env } } : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
      stderr: 'pipe',
    },
    maxMessageBytes,
  );
  let pending = '';
  const decoder = new TextDecoder();
  const stream = transport.stderr;
  stream?.on('data', (chunk: string | Uint8Array) => {
    pending += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    const lines = pending.split(/\r?\n/);
    pending = lines.pop() ?? '';
    // A server that never ends a line still cannot grow this without bound.
    if (pending.length > 8192) {
      lines.push(pending);
      pending = '';
    }
    for (const line of lines) if (line.trim() !== '') onStderr(line);
  });
  stream?.on('end', () => {
    if (pending.trim() !== '') onStderr(pending);
    pending = '';
  });
  return transport;
}
