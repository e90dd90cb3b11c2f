// What `#stdio-transport` resolves to in browsers and edge workers (the `browser`, `worker` and
// `workerd` conditions): there are no child processes there, so a stdio server cannot be started,
// and bundlers for those targets never see the SDK's Node-only stdio client.
import type { McpStdioServerConfig } from '@lousho/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export function stdioTransport(config: McpStdioServerConfig, _onStderr: (line: string) => void): Transport {
  throw new Error(`stdio MCP servers (here '${config.command}') need Node.js to start a process; in a browser or a worker, connect to the server over HTTP with { url }.`);
}
