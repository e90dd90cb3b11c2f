// What `#stdio-transport` resolves to in browsers and edge workers (the `browser`, `worker` and
// `workerd` conditions): there are no child processes there, so a stdio server cannot be started,
// and bundlers for those targets never see the SDK's Node-only stdio client.
import { ERROR_CODES, SDKError } from '@lousho/core';
import type { McpStdioServerConfig } from '@lousho/core';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';

export function stdioTransport(config: McpStdioServerConfig, _onStderr: (line: string) => void, _maxMessageBytes: number): Transport {
  throw new SDKError(ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED, `stdio MCP servers (here '${config.command}') need Node.js to start a process.`, { hint: 'In a browser or a worker, connect to the server over HTTP with { url }.' });
}
