import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { ToolDescriptor } from '@lousho/protocol';
import type { PerRun, RunConfigContext } from '@lousho/protocol';

/*
 * The seam between the agent and MCP. Core knows what `mcpServers` looks like and when a run needs
 * their tools, but not how to connect: that lives in `@lousho/mcp` (on the official MCP SDK, with
 * child processes for stdio servers), which `@lousho/build-ai-agent`'s `createAgent` plugs in as
 * `mcpConnector`. Core's own `createAgent` refuses `mcpServers` without one instead of ignoring them.
 */

/** A server started as a child process and spoken to over its stdin/stdout. */
export interface McpStdioServerConfig {
  command: string;
  args?: readonly string[];
  /** Added to a minimal environment (PATH, HOME, ...): the host's other variables are not passed on. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** Longest wait for one tool call, in ms (default: `connectMcp`'s `timeoutMs`, else 60 000). */
  timeoutMs?: number;
}

/** A server reached over Streamable HTTP, with a fallback to the older HTTP+SSE transport. */
export interface McpHttpServerConfig {
  url: string | URL;
  /** Sent with every request (e.g. `Authorization`); never shown in an error message. */
  headers?: Readonly<Record<string, string>>;
  timeoutMs?: number;
}

/** One MCP server to connect: a stdio `command` or an HTTP `url`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** Servers by name; each tool is offered to the model as `<name>__<tool>`. */
export type McpServers = Readonly<Record<string, McpServerConfig>>;

/** A tool left out because it could not be converted. */
export interface SkippedMcpTool {
  /** The tool's name on its server. */
  name: string;
  reason: string;
  /** The connection (server) name it came from. */
  server: string;
  /** The stable code of the reason, where there is one (LOUSHO_REGEX_UNSUPPORTED, LOUSHO_LIMIT_EXCEEDED, ...). */
  code?: string;
}

/** Where MCP warnings go (skipped tools, a stdio server's stderr). `console` fits. */
export interface McpLogger {
  /** One warning line. */
  warn(message: string): void;
}

/** Options of `connectMcp()` and `createAgent({ mcpServers })`: logging and what to do about tools that cannot be loaded. */
export interface McpConnectOptions {
  /** Receives a warning per skipped tool and every line a stdio server writes to stderr. */
  logger?: McpLogger;
  /** Called with each tool that was left out. */
  onSkip?: (tool: SkippedMcpTool) => void;
  /** Longest wait for one tool call, in ms, for servers that do not set their own (default 60 000). */
  timeoutMs?: number;
  /**
   * Largest message a server may send, in bytes (default 4 MiB): a call result, a page of the tool
   * list. Counted while reading; past it the rest of that message is dropped unread and the call ends
   * in an `mcp` tool error with LOUSHO_MCP_RESULT_TOO_LARGE.
   */
  maxResultBytes?: number;
  /** Most tools loaded from one server (default 1,000); the ones past it are skipped (`onSkip`, code LOUSHO_LIMIT_EXCEEDED). */
  maxTools?: number;
  /** Longest tool description, in characters (default 10,000); a tool with a longer one is skipped (code LOUSHO_LIMIT_EXCEEDED). */
  maxDescriptionLength?: number;
}

/** The connections of one agent: the tools of the servers a run asks for, connecting them on first use. */
export interface McpToolSource {
  /** The tools of `servers`, keyed `<server>__<tool>`; connects the ones not connected yet and reuses the others. */
  tools(servers: McpServers): Promise<Readonly<Record<string, ToolDescriptor>>>;
  /** Closes every connection (a later run connects again). */
  close(): Promise<void>;
}

/** Makes an agent's `McpToolSource`; `@lousho/build-ai-agent` passes `@lousho/mcp`'s. */
export type McpConnector = (options: McpConnectOptions) => McpToolSource | Promise<McpToolSource>;

/** The `createAgent()` options of this seam. */
export interface AgentMcpOptions {
  /** MCP servers whose tools the agent gets (connected on the first run, closed by `agent.close()`). */
  mcpServers?: PerRun<McpServers>;
  /** Logger, skip callback and default call timeout for `mcpServers`. */
  mcpOptions?: McpConnectOptions;
  /**
   * What connects `mcpServers`. `createAgent` from `@lousho/build-ai-agent` sets it to `@lousho/mcp`'s
   * connector; with core's own `createAgent` leave `mcpServers` out or pass one.
   */
  mcpConnector?: McpConnector;
}

/** One agent's MCP state: resolves `mcpServers` for a run and hands back their tools. */
export interface AgentMcp {
  toolsFor(ctx: RunConfigContext, resolve: (value: PerRun<McpServers>, ctx: RunConfigContext) => Promise<McpServers | undefined>): Promise<Readonly<Record<string, ToolDescriptor>> | undefined>;
  close(): Promise<void>;
}

/** The agent's MCP state, or undefined without `mcpServers`. Throws when nothing can connect them. */
export function agentMcp(config: AgentMcpOptions): AgentMcp | undefined {
  const servers = config.mcpServers;
  if (servers === undefined) return undefined;
  if (typeof servers !== 'function' && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `mcpServers must be an object of servers by name (or a function of the run returning one), got ${Array.isArray(servers) ? 'an array' : String(servers)}.`, {
      hint: "Pass e.g. mcpServers: { notes: { command: 'node', args: ['notes-server.js'] } }.",
    });
  }
  const connector = config.mcpConnector;
  if (typeof connector !== 'function') {
    throw new SDKError(
      ERROR_CODES.LOUSHO_MCP_UNAVAILABLE,
      "mcpServers needs MCP support, which this createAgent() does not have: it is @lousho/core's. Import createAgent from '@lousho/build-ai-agent' (it connects MCP servers through @lousho/mcp), or pass mcpConnector.",
      { hint: "import { createAgent } from '@lousho/build-ai-agent', or load the tools yourself with connectMcp() and pass them as tools." },
    );
  }
  let source: Promise<McpToolSource> | undefined;
  const sourceOf = (): Promise<McpToolSource> => {
    if (!source) {
      source = Promise.resolve().then(() => connector(config.mcpOptions ?? {}));
      // A connector that failed to load is asked again on the next run.
      source.catch(() => (source = undefined));
    }
    return source;
  };
  return {
    async toolsFor(ctx, resolve) {
      const resolved = await resolve(servers, ctx);
      if (resolved === undefined || Object.keys(resolved).length === 0) return undefined;
      return (await sourceOf()).tools(resolved);
    },
    async close() {
      const current = source;
      source = undefined;
      if (current) await (await current.catch(() => undefined))?.close();
    },
  };
}
