import { ERROR_CODES, SDKError, ToolCallError, toolErrorKind, type ErrorCode } from '@lousho/core';

/** An MCP server could not be started or reached. The message names the server and its command or URL, never its headers. */
export class McpConnectError extends SDKError {
  readonly server: string;

  constructor(server: string, target: string, reason: string, options: { hint?: string; cause?: unknown } = {}) {
    super(ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED, `MCP server '${server}' (${target}) could not be connected: ${reason}`, {
      hint: options.hint ?? 'Check that the command runs (or the URL answers) on its own, and read the server output the logger received.',
      cause: options.cause,
    });
    this.name = 'McpConnectError';
    this.server = server;
  }
}

/**
 * An MCP call that ended without the server's answer: a timeout, a crashed or closed server, a
 * protocol error. The model sees it as an `mcp` tool error (`error: 'McpCallError'`).
 */
export class McpCallError extends ToolCallError {
  readonly [toolErrorKind] = 'mcp' as const;

  constructor(toolName: string, message: string, options: { cause?: unknown; code?: ErrorCode; hint?: string } = {}) {
    super(options.code ?? ERROR_CODES.LOUSHO_MCP_CALL_FAILED, toolName, message, {
      hint: options.hint ?? 'The call can be tried again; a crashed server is reconnected on the next call.',
      cause: options.cause,
    });
    this.name = 'McpCallError';
  }
}
