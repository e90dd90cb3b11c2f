import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createAgent, ERROR_CODES, type ToolExecutionContext } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { connectMcp } from '../src/index.js';
import { failureOf, waitUntil } from './helpers.js';
import { createBasicServer, PIXEL_PNG } from './servers/basic-server.mjs';

/*
 * Real MCP servers over HTTP on loopback: Streamable HTTP at /mcp (behind a bearer token), and the
 * older HTTP+SSE transport at /sse (a server that only speaks that one).
 */
const TOKEN = 'Bearer s3cret-token';
const serverLog: string[] = [];
const used = { streamable: 0, sse: 0 };
let http: Server;
let base: string;

beforeAll(async () => {
  const streamable = new Map<string, StreamableHTTPServerTransport>();
  const sse = new Map<string, SSEServerTransport>();
  http = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      if (url.pathname === '/mcp') {
        if (req.headers.authorization !== TOKEN) return void res.writeHead(401, { 'content-type': 'text/plain' }).end('no');
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? streamable.get(id) : undefined;
        if (!transport) {
          const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void streamable.set(sid, created) });
          transport = created;
          used.streamable++;
          await createBasicServer((line) => serverLog.push(line)).connect(transport);
        }
        return transport.handleRequest(req, res);
      }
      if (url.pathname === '/sse' && req.method === 'GET') {
        const transport = new SSEServerTransport('/messages', res);
        sse.set(transport.sessionId, transport);
        used.sse++;
        return createBasicServer((line) => serverLog.push(line)).connect(transport);
      }
      if (url.pathname === '/messages' && req.method === 'POST') {
        const transport = sse.get(url.searchParams.get('sessionId') ?? '');
        if (!transport) return void res.writeHead(404).end();
        return transport.handlePostMessage(req, res);
      }
      res.writeHead(404).end();
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

const ctx = (signal?: AbortSignal): ToolExecutionContext => ({ toolCallId: 'c', messages: [], ...(signal ? { abortSignal: signal } : {}) });

describe('Streamable HTTP', () => {
  it('connects with the configured headers and uses the tools', async () => {
    const mcp = await connectMcp({ remote: { url: `${base}/mcp`, headers: { authorization: TOKEN } } });
    try {
      expect(used.streamable).toBeGreaterThan(0);
      const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'remote__echo', args: { text: 'over http', times: 2 } }] }, 'ok']), tools: mcp.tools }).send('go');
      expect(result.toolCalls[0]?.result).toEqual({ text: 'over http over http', content: [{ type: 'text', text: 'over http over http' }] });
      expect(await mcp.tools.remote__picture!.execute!({}, ctx())).toMatchObject({ content: [{ type: 'text' }, { type: 'image', data: PIXEL_PNG }, { type: 'audio' }] });
    } finally {
      await mcp.close();
    }
  });

  it('abort cancels the in-flight call: the cancellation reaches the server', async () => {
    const mcp = await connectMcp({ remote: { url: `${base}/mcp`, headers: { authorization: TOKEN } } });
    try {
      const controller = new AbortController();
      const pending = mcp.tools.remote__hang!.execute!({}, ctx(controller.signal));
      await waitUntil(() => serverLog.some((line) => line.startsWith('hang started')));
      const requestId = /request (\d+)/.exec(serverLog.find((line) => line.startsWith('hang started'))!)![1];
      controller.abort();
      await expect(pending).rejects.toBeDefined();
      await waitUntil(() => serverLog.some((line) => line.startsWith(`cancelled request ${requestId}`)));
    } finally {
      await mcp.close();
    }
  });

  it('a call past timeoutMs ends in an mcp tool error', async () => {
    const mcp = await connectMcp({ remote: { url: `${base}/mcp`, headers: { authorization: TOKEN }, timeoutMs: 300 } });
    try {
      await expect(mcp.tools.remote__hang!.execute!({}, ctx())).rejects.toMatchObject({ name: 'McpCallError', toolErrorKind: 'mcp', message: expect.stringContaining('within 300 ms') });
    } finally {
      await mcp.close();
    }
  });

  it('refused credentials: the error names the server and URL, never the header', async () => {
    const error = await failureOf(connectMcp({ remote: { url: `${base}/mcp`, headers: { authorization: 'Bearer wrong-secret' } } }));
    expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED, server: 'remote' });
    expect(error.message).toContain(`MCP server 'remote' (url: ${base}/mcp)`);
    expect(error.message).not.toContain('wrong-secret');
    expect(JSON.stringify(error)).not.toContain('wrong-secret');
  });

  it('an unreachable server: the URL is shown without query values, and no header value appears', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const error = await failureOf(connectMcp({ gone: { url: `http://127.0.0.1:${port}/mcp?token=abc123&team=x`, headers: { 'x-api-key': 'k3y-value' } } }));
    expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED });
    expect(error.message).toContain(`MCP server 'gone' (url: http://127.0.0.1:${port}/mcp?token=%E2%80%A6&team=%E2%80%A6)`);
    expect(error.message).not.toMatch(/abc123|k3y-value/);
    // A user and password in the URL are refused before anything is sent, without repeating them.
    const inline = await failureOf(connectMcp({ gone: { url: `http://user:pa55word@127.0.0.1:${port}/mcp` } }));
    expect(inline).toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG, message: expect.stringContaining('must not carry a user or password') });
    expect(inline.message).not.toContain('pa55word');
  });
});

describe('maxResultBytes over HTTP', () => {
  it('Streamable HTTP: an answer over the bound ends its call with LOUSHO_MCP_RESULT_TOO_LARGE; smaller ones pass', async () => {
    const mcp = await connectMcp({ remote: { url: `${base}/mcp`, headers: { Authorization: TOKEN }, timeoutMs: 20_000 } }, { maxResultBytes: 64 * 1024 });
    try {
      const error = await failureOf(mcp.tools.remote__big!.execute!({ bytes: 300_000 }, ctx()));
      expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE, message: expect.stringContaining('larger than 64 KiB (maxResultBytes') });
      expect(await mcp.tools.remote__big!.execute!({ bytes: 60_000 }, ctx())).toMatchObject({ text: 'x'.repeat(60_000) });
    } finally {
      await mcp.close();
    }
  });

  it('HTTP+SSE: the same, for answers that arrive on the event stream', async () => {
    const mcp = await connectMcp({ legacy: { url: `${base}/sse`, timeoutMs: 20_000 } }, { maxResultBytes: 64 * 1024 });
    try {
      const error = await failureOf(mcp.tools.legacy__big!.execute!({ bytes: 300_000 }, ctx()));
      expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE });
      expect(await mcp.tools.legacy__echo!.execute!({ text: 'after' }, ctx())).toMatchObject({ text: 'after' });
    } finally {
      await mcp.close();
    }
  });
});

describe('HTTP+SSE fallback', () => {
  it('a server that only speaks the older transport is reached through it', async () => {
    const before = used.sse;
    const mcp = await connectMcp({ legacy: { url: `${base}/sse` } });
    try {
      expect(used.sse).toBe(before + 1);
      expect(await mcp.tools.legacy__add!.execute!({ a: 20, b: 22 }, ctx())).toEqual({ sum: 42 });
      await expect(mcp.tools.legacy__fail!.execute!({}, ctx())).rejects.toMatchObject({ name: 'McpToolError', message: 'The server said no.\nTwice.' });
    } finally {
      await mcp.close();
    }
  });
});
