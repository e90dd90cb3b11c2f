import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { McpConnectError } from '../errors.js';
import { DEFAULT_MAX_RESULT_BYTES } from '../limits.js';
import { scrubSecrets, type CheckedServer } from '../server-config.js';
import { boundedFetch } from './bounded-fetch.js';

export const CLIENT_INFO = { name: 'lousho', version: '0.1.0' };

/** How long starting a server and its handshake may take (a per-call `timeoutMs` is often shorter than a cold start). */
export const CONNECT_TIMEOUT_MS = 30_000;

/** The last lines a stdio server wrote to stderr, for the error message when it does not start. */
export class StderrTail {
  readonly #lines: string[] = [];
  add(line: string): void {
    this.#lines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
    if (this.#lines.length > 10) this.#lines.shift();
  }
  text(): string {
    return this.#lines.join('\n');
  }
}

/**
 * Connects one server: stdio (a child process), or Streamable HTTP with a fallback to the older
 * HTTP+SSE transport. Fails with `McpConnectError` naming the server and its command or URL.
 */
export async function connectClient(server: CheckedServer, onStderr: (line: string) => void, maxResultBytes = DEFAULT_MAX_RESULT_BYTES): Promise<Client> {
  if (server.kind === 'stdio') {
    const tail = new StderrTail();
    // Node gets the real transport; browser and worker builds get one that explains (package.json imports).
    const { stdioTransport } = await import('#stdio-transport');
    const transport = stdioTransport(
      server.config,
      (line) => {
        tail.add(line);
        onStderr(line);
      },
      maxResultBytes,
    );
    try {
      return await connectWith(transport, Math.max(server.timeoutMs, CONNECT_TIMEOUT_MS));
    } catch (error) {
      await transport.close().catch(() => {});
      // Give the process a moment to flush what it wrote to stderr before it died.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const said = tail.text();
      throw new McpConnectError(server.name, server.target, `${reasonOf(error)}${said ? `\nThe server wrote to stderr:\n${said}` : ''}`, { cause: error });
    }
  }

  const requestInit: RequestInit = server.config.headers ? { headers: { ...server.config.headers } } : {};
  // Each message is bounded while it is read (a call's result, a page of the tool list).
  const fetch = boundedFetch(maxResultBytes);
  try {
    return await connectWith(new StreamableHTTPClientTransport(server.url, { requestInit, fetch }), Math.max(server.timeoutMs, CONNECT_TIMEOUT_MS));
  } catch (streamable) {
    // An authorisation problem is not solved by the older transport.
    if (streamable instanceof StreamableHTTPError && (streamable.code === 401 || streamable.code === 403)) {
      throw new McpConnectError(server.name, server.target, `the server refused the credentials (HTTP ${streamable.code}).`, { hint: 'Check the headers (e.g. Authorization) in the server config.' });
    }
    try {
      return await connectWith(new SSEClientTransport(server.url, { requestInit, fetch }), Math.max(server.timeoutMs, CONNECT_TIMEOUT_MS));
    } catch (sse) {
      // Library messages may quote the URL or a header: what the error says is scrubbed, and the cause is not kept.
      throw new McpConnectError(server.name, server.target, scrubSecrets(server, `Streamable HTTP failed (${reasonOf(streamable)}), and so did HTTP+SSE (${reasonOf(sse)}).`));
    }
  }
}

async function connectWith(transport: Transport, timeoutMs: number): Promise<Client> {
  const client = new Client(CLIENT_INFO, { capabilities: {} });
  await client.connect(transport, { timeout: timeoutMs });
  return client;
}

function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') return 'the command was not found';
  if (code === 'EACCES') return 'the command is not executable';
  const cause = (error as { cause?: unknown }).cause;
  const detail = cause instanceof Error && cause.message && !error.message.includes(cause.message) ? ` (${cause.message})` : '';
  return `${error.message || error.name}${detail}`;
}
