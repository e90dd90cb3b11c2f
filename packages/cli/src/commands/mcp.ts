import { createServer } from 'node:http';
import { existsSync } from 'node:fs';
import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { ERROR_CODES, SDKError } from '@lousho/core';
import { serveMcp, type McpAgentServer, type ServeMcpOptions } from '@lousho/mcp';
import { toNodeHandler } from '@lousho/node/node';
import { agentOf, type AgentModule } from '../runtime/agent-module.js';
import type { CliIo } from '../io.js';

/** What `lousho mcp serve` reads of an agent module, beyond the agent itself. */
interface McpAgentModule extends AgentModule {
  /** Options of `serveMcp()` (`tools`, `sessions`, bounds, ...). Over HTTP, `authorize` defaults to `handlerOptions.authorize`. */
  mcpOptions?: ServeMcpOptions;
}

interface ServeFlags {
  http?: boolean;
  port: number;
  host: string;
  path: string;
}

const TS = new Set(['.ts', '.mts', '.cts', '.tsx']);
const JS = new Set(['.js', '.mjs', '.cjs']);

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('expected a port number (0-65535).');
  return n;
}

/** `lousho mcp serve <agent>`: the agent module as an MCP server, on stdio (default) or Streamable HTTP. */
export function mcpCommand(io: CliIo): Command {
  const serve = new Command('serve')
    .description('Serve an agent module as an MCP server: one tool that takes a prompt and answers with the agent’s final text')
    .argument('<agent>', 'the agent module (its default export, or `agent`: the agent or a function of process.env returning one)')
    .option('--http', 'serve Streamable HTTP instead of stdio')
    .option('--port <n>', 'HTTP port (0: any free port)', port, 3000)
    .option('--host <host>', 'HTTP host to listen on', '127.0.0.1')
    .option('--path <path>', 'HTTP path of the MCP endpoint', '/mcp')
    .addHelpText(
      'after',
      '\nOn stdio, stdout carries the protocol: the command writes nothing else there (messages go to stderr).\nThe module may export `mcpOptions` (serveMcp options) and `handlerOptions.authorize` (used over HTTP).\n',
    )
    .action(async (file: string, flags: ServeFlags) => {
      const mod = await loadAgentModule(resolve(io.cwd, file));
      const agent = await agentOf(mod, process.env);
      const authorize = mod.mcpOptions?.authorize ?? mod.handlerOptions?.authorize;
      const server = serveMcp(agent, {
        ...mod.mcpOptions,
        ...(authorize ? { authorize } : {}),
        onError: mod.mcpOptions?.onError ?? ((error: unknown) => io.stderr(`lousho mcp: ${error instanceof Error ? error.message : String(error)}\n`)),
      });
      if (flags.http) await serveHttp(server, flags, io);
      else await serveStdio(server, io);
      await (agent as { close?: () => Promise<void> }).close?.();
    });
  return new Command('mcp').description('Model Context Protocol: serve an agent to MCP clients').addCommand(serve);
}

/** Serves on stdin/stdout until the connection ends (the client closed stdin, an oversized message) or a signal comes. */
async function serveStdio(server: McpAgentServer, io: CliIo): Promise<void> {
  io.stderr('lousho mcp: serving on stdio\n');
  await Promise.race([server.serveStdio(), untilStopped()]);
  await server.close();
}

async function serveHttp(server: McpAgentServer, flags: ServeFlags, io: CliIo): Promise<void> {
  const path = flags.path.startsWith('/') ? flags.path : `/${flags.path}`;
  const mcp = toNodeHandler((request: Request) => server.fetch(request));
  const loopback = isLoopback(flags.host);
  const http = createServer((req, res) => {
    // On a loopback address only local pages may call: a DNS-rebound site (Host or Origin elsewhere) is refused.
    if (loopback && !(isLoopback(hostnameOf(req.headers.host)) && (req.headers.origin === undefined || isLoopback(hostnameOf(req.headers.origin))))) {
      res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: ERROR_CODES.LOUSHO_UNAUTHORIZED, message: 'Only local clients may use this MCP server (Host and Origin must be loopback).' } }));
      return;
    }
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname === path) return mcp(req, res);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { code: ERROR_CODES.LOUSHO_ROUTE_NOT_FOUND, message: `The MCP endpoint is ${path}.` } }));
  });
  await new Promise<void>((resolveListen, reject) => {
    http.once('error', reject);
    http.listen(flags.port, flags.host, resolveListen);
  });
  const address = http.address();
  const shownPort = typeof address === 'object' && address ? address.port : flags.port;
  // One line a supervisor (or a test) can wait for.
  io.stderr(`lousho mcp: serving Streamable HTTP at http://${flags.host}:${shownPort}${path}\n`);
  await untilStopped();
  await server.close();
  const closed = new Promise<void>((done) => http.close(() => done()));
  // Idle keep-alive connections would hold the close for seconds.
  http.closeAllConnections();
  await closed;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function isLoopback(hostname: string | undefined): boolean {
  return hostname !== undefined && LOOPBACK_NAMES.has(hostname.toLowerCase());
}

/** The host name of a `Host` header or an `Origin` (undefined when it cannot be read). */
function hostnameOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  try {
    return new URL(value.includes('://') ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

/** Resolves on SIGINT / SIGTERM. */
function untilStopped(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      done();
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

/** Imports the agent module (TypeScript through tsx, scoped to this import). */
async function loadAgentModule(file: string): Promise<McpAgentModule> {
  const ext = extname(file);
  if (!existsSync(file)) throw new SDKError(ERROR_CODES.LOUSHO_DEPLOY_INVALID, `The agent module ${file} does not exist.`, { hint: 'Pass the file that exports your agent: lousho mcp serve ./src/agent.ts' });
  if (!TS.has(ext) && !JS.has(ext)) throw new SDKError(ERROR_CODES.LOUSHO_DEPLOY_INVALID, `${file} is not a JavaScript or TypeScript module.`, { hint: 'The agent module is a .ts, .mts, .js or .mjs file.' });
  const url = pathToFileURL(file).href;
  try {
    if (TS.has(ext)) {
      const { tsImport } = await import('tsx/esm/api');
      return (await tsImport(url, { parentURL: import.meta.url })) as McpAgentModule;
    }
    return (await import(url)) as McpAgentModule;
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_DEPLOY_INVALID, `${file} could not be loaded: ${error instanceof Error ? error.message : String(error)}`, { hint: 'Fix the error above (a missing import, a syntax error), then run again.' });
  }
}
