import { ERROR_CODES, type HandlerAgent as ClientAgent, type ResolvedTool } from '@lousho/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { callAgent } from './agent-call.js';
import { progressSink } from './progress.js';
import { errorResult } from './results.js';
import { callServedTool, listedTool } from './served-tools.js';
import type { ServeMcpSettings } from './options.js';

/** What every connection of one `serveMcp()` shares. */
export interface ServedAgent {
  agent: ClientAgent;
  settings: ServeMcpSettings;
  tools: ReadonlyMap<string, ResolvedTool>;
}

/**
 * The MCP server of one connection (a stdio process, an HTTP `Mcp-Session-Id`). With
 * `sessions: 'connection'` its calls continue one Lousho session, one call after the other (a
 * session runs one turn at a time); `principal` owns that session.
 */
export function connectionServer(served: ServedAgent, principal: string | undefined): Server {
  const { agent, settings, tools } = served;
  const server = new Server({ name: settings.name, version: settings.version }, { capabilities: { tools: {} } });
  const agentTool = agentToolOf(settings);
  let connectionSession: string | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  /** The Lousho session of a call, created for `principal` the first time (so the agent handler shows it to them). */
  const sessionFor = async (): Promise<string> => {
    if (settings.sessions === 'connection' && connectionSession !== undefined) return connectionSession;
    const id = `mcp-${crypto.randomUUID()}`;
    if (principal !== undefined) await agent.sessions.create(id, { owner: principal });
    if (settings.sessions === 'connection') connectionSession = id;
    return id;
  };

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [agentTool, ...[...tools.values()].map(listedTool)] }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    const progress = progressSink(extra._meta?.progressToken, (notification) => extra.sendNotification(notification));
    const call = { server, settings, requestId: extra.requestId, signal: extra.signal, progress };
    if (name === settings.toolName) {
      const prompt = promptOf(args, settings.maxPromptLength);
      if (typeof prompt !== 'string') return prompt;
      return inTurn(async () => callAgent({ ...call, agent, prompt, sessionId: await sessionFor() }));
    }
    const tool = tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${JSON.stringify(name.slice(0, 64))}`);
    return callServedTool(tool, args, { ...call, sessionId: connectionSession ?? 'mcp' });
  });

  /** Runs the agent calls of a connection one at a time when they share a session. */
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    if (settings.sessions === 'call') return run();
    const next = queue.then(run, run);
    queue = next.catch(() => {});
    return next;
  };

  return server;
}

/** The agent's tool: `prompt` in, the final text out. */
function agentToolOf(settings: ServeMcpSettings): Tool {
  return {
    name: settings.toolName,
    description: settings.description,
    inputSchema: {
      type: 'object',
      properties: { prompt: { type: 'string', minLength: 1, maxLength: settings.maxPromptLength, description: 'What to ask the agent.' } },
      required: ['prompt'],
      additionalProperties: false,
    },
  };
}

/** The prompt of a call, or the error result saying what is wrong with the arguments. */
function promptOf(args: unknown, maxLength: number): string | CallToolResult {
  const invalid = (message: string) => errorResult(ERROR_CODES.LOUSHO_INVALID_INPUT, `Invalid arguments: ${message}`);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return invalid('expected an object { "prompt": "..." }.');
  const extra = Object.keys(args).find((key) => key !== 'prompt');
  if (extra !== undefined) return invalid(`unknown argument ${JSON.stringify(extra.slice(0, 64))}; the only one is "prompt".`);
  const { prompt } = args as { prompt?: unknown };
  if (typeof prompt !== 'string') return invalid(`"prompt" must be a string, got ${prompt === undefined ? 'nothing' : prompt === null ? 'null' : typeof prompt}.`);
  if (prompt.trim() === '') return invalid('"prompt" is empty.');
  if (prompt.length > maxLength) return invalid(`"prompt" is longer than ${maxLength} characters (maxPromptLength).`);
  return prompt;
}
