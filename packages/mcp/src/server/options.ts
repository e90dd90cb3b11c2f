import { ERROR_CODES, SDKError, UnknownOptionError, isValidToolName, type ToolDescriptor } from '@lousho/core';

/** Options of `serveMcp(agent, options)`. Every key is checked: an unknown one is an error. */
export interface ServeMcpOptions {
  /** The server's name in the MCP handshake (default: the agent's `name`, else `lousho-agent`). */
  name?: string;
  /** The server's version in the handshake (default `0.0.0`). */
  version?: string;
  /** The name of the tool that asks the agent (default: the agent's `name` made a tool name, else `ask_agent`). */
  toolName?: string;
  /** What the tool says it does (default: the agent's `description`). */
  description?: string;
  /**
   * Tools served as MCP tools of their own, next to the agent's tool: the descriptors you gave the
   * agent (or others). They run as they are: arguments checked by their schema, `needsApproval`
   * asked through elicitation; the agent's permissions, hooks and guardrails are not applied.
   */
  tools?: readonly ToolDescriptor<any>[] | Readonly<Record<string, ToolDescriptor<any>>>;
  /**
   * What one MCP session maps to: `'connection'` (default), one Lousho session per MCP session
   * (a stdio process, an HTTP `Mcp-Session-Id`), so its calls continue one conversation; `'call'`,
   * a new Lousho session for every call.
   */
  sessions?: 'connection' | 'call';
  /**
   * HTTP only: who is asking, as `createAgentHandler()`'s hook takes it: a principal id, or
   * null / undefined to answer 401. The Lousho sessions an MCP session starts belong to it.
   */
  authorize?: (request: Request) => string | null | undefined | Promise<string | null | undefined>;
  /** Longest `prompt`, in characters (default 100,000). */
  maxPromptLength?: number;
  /** Largest message a client may send, in bytes (default 1 MiB): an HTTP body past it gets 413, a stdio line past it is dropped. */
  maxMessageBytes?: number;
  /** Largest result of a served tool, in bytes of JSON (default 1 MiB); a larger one is an error result. */
  maxResultBytes?: number;
  /** HTTP only: most MCP sessions open at once (default 1,000); the oldest idle one is closed past it. */
  maxSessions?: number;
  /** HTTP only: an MCP session unused this long (ms) is closed (default 30 minutes). */
  sessionIdleMs?: number;
  /** How long a person may take to answer an approval or a question asked through elicitation (ms, default 10 minutes). */
  elicitationTimeoutMs?: number;
  /** Most approvals and questions one call may ask (default 20); past it the call ends with an error. */
  maxElicitations?: number;
  /** Unexpected failures (answered without details): log them here. */
  onError?: (error: unknown) => void;
}

/** `ServeMcpOptions` with defaults filled in. */
export interface ServeMcpSettings {
  name: string;
  version: string;
  toolName: string;
  description: string;
  tools: readonly [string, ToolDescriptor<any>][];
  sessions: 'connection' | 'call';
  authorize: ServeMcpOptions['authorize'];
  maxPromptLength: number;
  maxMessageBytes: number;
  maxResultBytes: number;
  maxSessions: number;
  sessionIdleMs: number;
  elicitationTimeoutMs: number;
  maxElicitations: number;
  onError: (error: unknown) => void;
}

const KNOWN: Readonly<Record<keyof ServeMcpOptions, true>> = {
  name: true,
  version: true,
  toolName: true,
  description: true,
  tools: true,
  sessions: true,
  authorize: true,
  maxPromptLength: true,
  maxMessageBytes: true,
  maxResultBytes: true,
  maxSessions: true,
  sessionIdleMs: true,
  elicitationTimeoutMs: true,
  maxElicitations: true,
  onError: true,
};

const WHERE = 'serveMcp()';

/** Checks `options` (unknown keys, types, bounds) and fills in the defaults. */
export function settingsOf(agent: { name?: string; description?: string }, options: ServeMcpOptions = {}): ServeMcpSettings {
  if (typeof options !== 'object' || options === null) throw invalid(`options must be an object, got ${typeof options}.`);
  for (const key of Object.keys(options)) {
    if (!Object.prototype.hasOwnProperty.call(KNOWN, key)) throw new UnknownOptionError(WHERE, key, undefined, undefined);
  }
  const toolName = options.toolName ?? toolNameOf(agent.name);
  if (!isValidToolName(toolName)) throw invalid(`toolName must be 1-64 letters, digits, '_' or '-', got ${JSON.stringify(String(toolName)).slice(0, 80)}.`);
  const sessions = options.sessions ?? 'connection';
  if (sessions !== 'connection' && sessions !== 'call') throw invalid(`sessions must be 'connection' or 'call', got ${JSON.stringify(sessions)}.`);
  if (options.authorize !== undefined && typeof options.authorize !== 'function') throw invalid('authorize must be a function of the Request.');
  if (options.onError !== undefined && typeof options.onError !== 'function') throw invalid('onError must be a function.');
  return {
    name: text('name', options.name) ?? agent.name ?? 'lousho-agent',
    version: text('version', options.version) ?? '0.0.0',
    toolName,
    description: text('description', options.description) ?? agent.description ?? 'Ask the agent. It answers with its final reply.',
    tools: toolList(options.tools),
    sessions,
    authorize: options.authorize,
    maxPromptLength: positiveInteger('maxPromptLength', options.maxPromptLength, 100_000),
    maxMessageBytes: positiveInteger('maxMessageBytes', options.maxMessageBytes, 1024 * 1024),
    maxResultBytes: positiveInteger('maxResultBytes', options.maxResultBytes, 1024 * 1024),
    maxSessions: positiveInteger('maxSessions', options.maxSessions, 1000),
    sessionIdleMs: positiveInteger('sessionIdleMs', options.sessionIdleMs, 30 * 60_000),
    elicitationTimeoutMs: positiveInteger('elicitationTimeoutMs', options.elicitationTimeoutMs, 10 * 60_000),
    maxElicitations: positiveInteger('maxElicitations', options.maxElicitations, 20),
    onError: options.onError ?? (() => {}),
  };
}

/** The agent's name as a tool name (`Lousho demo` → `Lousho_demo`). */
function toolNameOf(name: string | undefined): string {
  const cleaned = (name ?? '').replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
  return cleaned === '' ? 'ask_agent' : cleaned;
}

function toolList(tools: ServeMcpOptions['tools']): [string, ToolDescriptor<any>][] {
  if (tools === undefined) return [];
  if (Array.isArray(tools)) {
    return tools.map((tool: ToolDescriptor<any>, index) => {
      if (typeof tool?.name !== 'string') throw invalid(`tools[${index}] has no name; pass defineTool() results with a name, or a record of tools.`);
      return [tool.name, tool];
    });
  }
  if (typeof tools !== 'object' || tools === null) throw invalid('tools must be an array of tools or a record of them.');
  return Object.entries(tools as Record<string, ToolDescriptor<any>>);
}

function text(name: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string' && value.trim() !== '') return value;
  throw invalid(`${name} must be a non-empty string.`);
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  throw invalid(`${name} must be a positive integer, got ${String(value).slice(0, 40)}.`, `Leave it out for the default (${fallback}).`);
}

function invalid(message: string, hint = 'See docs/mcp.md, "Serve an agent over MCP".'): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${WHERE}: ${message}`, { hint });
}
