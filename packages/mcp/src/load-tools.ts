import { ERROR_CODES, SDKError, type McpLogger, type SkippedMcpTool, type ToolDescriptor, type ToolExecutionContext } from '@lousho/core';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod/v4';
import { toToolResult } from './call-result.js';
import { RESULT_TOO_LARGE_RPC_CODE } from './transport/oversized.js';
import { McpCallError } from './errors.js';
import { isJsonObject, type JsonObject } from './json-schema/json-value.js';
import { jsonSchemaToZod } from './json-schema/to-zod.js';
import { checkLimits, type McpLimits } from './limits.js';
import { DEFAULT_TIMEOUT_MS } from './server-config.js';
import { agentToolName, collisionError } from './tool-names.js';

/** Options of `loadMcpTools()`: who hears about skipped tools. */
export interface LoadMcpToolsOptions {
  /** Receives a warning naming the server, the tool and the reason for each skipped tool. */
  logger?: McpLogger;
  /** Called with each tool that was left out (`{ name, reason, server }`). */
  onSkip?: (tool: SkippedMcpTool) => void;
  /** Longest wait for one call, in ms (default 60 000); past it the call ends in an `mcp` tool error. */
  timeoutMs?: number;
  /** Most tools loaded (default 1,000); the rest are skipped with code LOUSHO_LIMIT_EXCEEDED. */
  maxTools?: number;
  /** Longest tool description, in characters (default 10,000); a tool with a longer one is skipped. */
  maxDescriptionLength?: number;
}

/** How tools reach their server: a client as is, or a connection that reconnects after a crash. */
export interface McpToolCaller {
  request: Client['request'];
  /** Called when a call fails because the connection is gone, so the next call can reconnect. */
  connectionLost?(): void;
}

// The SDK's own result schemas reject a whole list for one odd tool, and unknown content types:
// tools and parts are checked one by one here instead.
const LIST_RESULT = z.looseObject({ tools: z.array(z.unknown()).optional(), nextCursor: z.string().optional() });
const CALL_RESULT = z.looseObject({});
const MAX_PAGES = 100;
/** Largest input schema offered to a model. */
const MAX_SCHEMA_BYTES = 256 * 1024;

/**
 * Loads every tool of a connected MCP server as `ToolDescriptor`s named `<connectionName>__<tool>`.
 * A tool that cannot be converted is skipped (see `onSkip`); the rest load.
 */
export async function loadMcpTools(client: Pick<Client, 'request'>, connectionName: string, options: LoadMcpToolsOptions = {}): Promise<Record<string, ToolDescriptor>> {
  const raw = await listAllTools(client, DEFAULT_TIMEOUT_MS, checkLimits(options).maxTools);
  return toolsFromList({ request: client.request.bind(client) as Client['request'] }, connectionName, raw, options);
}

/** Every page of `tools/list`, as sent; paging stops once there are more than `maxTools` (the surplus is skipped, not loaded). */
export async function listAllTools(client: Pick<Client, 'request'>, timeoutMs = DEFAULT_TIMEOUT_MS, maxTools = Infinity): Promise<unknown[]> {
  const tools: unknown[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.request({ method: 'tools/list', params: cursor ? { cursor } : {} }, LIST_RESULT, { timeout: timeoutMs });
    tools.push(...(result.tools ?? []));
    cursor = result.nextCursor;
    // A server that hands out the same cursor again would page forever.
    if (!cursor || seen.has(cursor) || tools.length > maxTools) break;
    seen.add(cursor);
  }
  return tools;
}

/** Builds the descriptors of one server's tool list. */
export function toolsFromList(caller: McpToolCaller, server: string, list: readonly unknown[], options: LoadMcpToolsOptions = {}): Record<string, ToolDescriptor> {
  const tools: Record<string, ToolDescriptor> = {};
  const origin = new Map<string, string>();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const limits = checkLimits(options);
  const skip = (skipped: SkippedMcpTool) => {
    options.logger?.warn(`MCP server '${server}': tool '${skipped.name}' was skipped: ${skipped.reason}`);
    options.onSkip?.(skipped);
  };
  if (list.length > limits.maxTools) {
    // One line for the surplus (a server may list thousands), one onSkip call per tool.
    options.logger?.warn(`MCP server '${server}' lists more than ${limits.maxTools} tools (maxTools); only the first ${limits.maxTools} are loaded.`);
    for (const entry of list.slice(limits.maxTools)) options.onSkip?.({ name: nameOf(entry), server, code: ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, reason: `the server lists more than ${limits.maxTools} tools (maxTools).` });
  }
  for (const entry of list.slice(0, limits.maxTools)) {
    const built = describeTool(caller, server, entry, timeoutMs, limits);
    if ('skipped' in built) {
      skip(built.skipped);
      continue;
    }
    const { agentName, toolName, descriptor } = built;
    const earlier = origin.get(agentName);
    if (earlier !== undefined) throw collisionError(server, agentName, earlier, toolName);
    origin.set(agentName, toolName);
    tools[agentName] = descriptor;
  }
  return tools;
}

type Built = { agentName: string; toolName: string; descriptor: ToolDescriptor } | { skipped: SkippedMcpTool };

function nameOf(entry: unknown): string {
  return isJsonObject(entry) && typeof entry.name === 'string' ? entry.name.slice(0, 200) : String(isJsonObject(entry) ? entry.name : entry).slice(0, 100);
}

function describeTool(caller: McpToolCaller, server: string, entry: unknown, timeoutMs: number, limits: McpLimits): Built {
  const name = isJsonObject(entry) && typeof entry.name === 'string' ? entry.name : undefined;
  const skip = (reason: string, code?: string): Built => ({ skipped: { name: nameOf(entry), reason, server, ...(code ? { code } : {}) } });
  if (!isJsonObject(entry) || !name) return skip('the server listed it without a name.');
  try {
    const schema = entry.inputSchema === undefined ? { type: 'object' } : entry.inputSchema;
    if (!isJsonObject(schema)) return skip(`its inputSchema is not a JSON Schema object (got ${Array.isArray(schema) ? 'an array' : typeof schema}).`);
    const types = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? ['object'] : [schema.type];
    if (!types.includes('object')) return skip(`its inputSchema describes ${JSON.stringify(schema.type)}, but tool arguments are always an object.`);
    const size = JSON.stringify(schema).length;
    if (size > MAX_SCHEMA_BYTES) return skip(`its inputSchema is ${Math.round(size / 1024)} KB; at most ${MAX_SCHEMA_BYTES / 1024} KB is offered to a model.`, ERROR_CODES.LOUSHO_LIMIT_EXCEEDED);

    const description = [entry.description, entry.title, name].find((text): text is string => typeof text === 'string' && text.trim() !== '')!;
    // Every description goes into every model request: a huge one is refused, not sent.
    if (description.length > limits.maxDescriptionLength) return skip(`its description is ${description.length} characters; at most ${limits.maxDescriptionLength} (maxDescriptionLength) is offered to a model.`, ERROR_CODES.LOUSHO_LIMIT_EXCEEDED);
    const agentName = agentToolName(server, name);
    const title = typeof entry.title === 'string' && entry.title.trim() ? entry.title : isJsonObject(entry.annotations) && typeof entry.annotations.title === 'string' ? entry.annotations.title : name;
    const descriptor: ToolDescriptor = {
      name: agentName,
      description,
      displayName: title,
      // The model reads the server's own schema (descriptions and all); arguments are checked against its zod form.
      parameters: { ...schema, type: 'object' } as JsonObject,
      inputSchema: jsonSchemaToZod(schema, { who: `MCP server '${server}', tool '${name}'` }),
      execute: (args: unknown, ctx: ToolExecutionContext) => callTool(caller, { server, toolName: name, agentName, args, ctx, timeoutMs }),
    };
    return { agentName, toolName: name, descriptor };
  } catch (error) {
    if (error instanceof SDKError) return skip(error.message, error.code);
    return skip(error instanceof Error ? error.message : String(error));
  }
}

interface Call {
  server: string;
  toolName: string;
  agentName: string;
  args: unknown;
  ctx: ToolExecutionContext;
  timeoutMs: number;
}

async function callTool(caller: McpToolCaller, call: Call): Promise<unknown> {
  const { ctx } = call;
  // A signal of this call only: the run's signal outlives it, and aborting after the answer must not cancel anything.
  const controller = new AbortController();
  const onAbort = () => controller.abort(ctx.abortSignal?.reason);
  if (ctx.abortSignal?.aborted) onAbort();
  ctx.abortSignal?.addEventListener('abort', onAbort, { once: true });
  let result: unknown;
  try {
    result = await caller.request(
      { method: 'tools/call', params: { name: call.toolName, arguments: (isJsonObject(call.args) ? call.args : {}) as Record<string, unknown> } },
      CALL_RESULT,
      {
        signal: controller.signal,
        timeout: call.timeoutMs,
        ...(ctx.reportProgress ? { onprogress: (progress: { progress: number; total?: number; message?: string }) => ctx.reportProgress?.(progress) } : {}),
      },
    );
  } catch (error) {
    // A stop: the loop records the call as cancelled.
    if (ctx.abortSignal?.aborted) throw ctx.abortSignal.reason ?? error;
    throw callError(caller, call, error);
  } finally {
    ctx.abortSignal?.removeEventListener('abort', onAbort);
  }
  return toToolResult(result, call.agentName);
}

function callError(caller: McpToolCaller, call: Call, error: unknown): McpCallError {
  const where = `MCP server '${call.server}'`;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return new McpCallError(call.agentName, `${where} did not answer the call to '${call.toolName}' within ${call.timeoutMs} ms; the call was cancelled.`, { cause: error });
  }
  if (error instanceof McpError && error.code === RESULT_TOO_LARGE_RPC_CODE) {
    return new McpCallError(call.agentName, `${where} answered the call to '${call.toolName}' with more than the allowed size. ${error.message.replace(/^MCP error -?\d+: /, '')}`, { cause: error, code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE, hint: 'Ask for less (a narrower query, a page), or raise maxResultBytes in the MCP options.' });
  }
  const lost = (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) || (error instanceof Error && /not connected/i.test(error.message));
  if (lost) {
    caller.connectionLost?.();
    const next = caller.connectionLost ? ' It is reconnected on the next call.' : '';
    return new McpCallError(call.agentName, `${where} closed the connection during the call to '${call.toolName}' (it may have crashed).${next}`, { cause: error });
  }
  const message = error instanceof McpError ? error.message.replace(/^MCP error -?\d+: /, '') : error instanceof Error ? error.message : String(error);
  return new McpCallError(call.agentName, `${where} answered the call to '${call.toolName}' with an error: ${message}`, { cause: error });
}
