// Node only (child processes): loaded with import() when a stdio server is connected, so the
// package root stays usable in a browser bundle.
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpStdioServerConfig } from '@lousho/core';

/** A transport that starts the server; its stderr lines go to `onStderr`, never to the host's stdout or stderr. */
export function stdioTransport(config: McpStdioServerConfig, onStderr: (line: string) => void): StdioClientTransport {
  const transport = new StdioClientTransport({
    command: config.command,
    args: [...(config.args ?? [])],
    ...(config.env ? { env: { ...config.env } } : {}),
    ...(config.cwd ? { cwd: config.cwd } : {}),
    stderr: 'pipe',
  });
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
