import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'node:http';
import { fixture, lousho } from './helpers.js';

/** The status of a POST to /mcp with these headers (node:http: fetch may not set Host). */
function statusOf(port: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolveStatus, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
      res.resume();
      resolveStatus(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end('{}');
  });
}

// `lousho mcp serve` as a real process, driven by the official MCP SDK's client. The demo agent's
// approvals through elicitation are tested in apps/demo-server/test/mcp-serve.test.ts.

const tsx = fileURLToPath(new URL('../../core/node_modules/.bin/tsx', import.meta.url));
const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));
const cleanups: (() => Promise<unknown> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

describe('lousho mcp serve', () => {
  it('serves the agent module on stdio: the agent tool answers with its final text', async () => {
    const client = new Client({ name: 'test', version: '1.0.0' });
    const stderr: string[] = [];
    const transport = new StdioClientTransport({ command: tsx, args: ['--conditions=@lousho/source', bin, 'mcp', 'serve', fixture('agent.ts')], stderr: 'pipe' });
    transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString()));
    await client.connect(transport);
    cleanups.push(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['ask_agent']);
    const result = await client.callTool({ name: 'ask_agent', arguments: { prompt: 'hi' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Hello from the built server, and a few more words to stream slowly.' }]);
    expect(stderr.join('')).toContain('serving on stdio');
  }, 60_000);

  it('serves Streamable HTTP with --http --port', async () => {
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'mcp', 'serve', fixture('agent.ts'), '--http', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => new Promise((done) => (child.exitCode !== null ? done(undefined) : (child.once('exit', done), child.kill('SIGTERM')))));
    const url = await new Promise<string>((resolveUrl, reject) => {
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        const match = /serving Streamable HTTP at (\S+)/.exec(stderr);
        if (match) resolveUrl(match[1]!);
      });
      child.once('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanups.unshift(() => client.close());
    const result = await client.callTool({ name: 'ask_agent', arguments: { prompt: 'hi' } });
    expect(result.isError).toBeFalsy();
    expect(JSON.stringify(result.content)).toContain('Hello from the built server');
    const elsewhere = await fetch(new URL('/other', url));
    expect(elsewhere.status).toBe(404);
    // DNS rebinding: a page of another site reaching the loopback port is refused.
    const port = new URL(url).port;
    expect(await statusOf(port, { host: `evil.example:${port}` })).toBe(403);
    expect(await statusOf(port, { host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403);
    expect(await statusOf(port, { host: `localhost:${port}`, origin: `http://localhost:5173` })).not.toBe(403);
  }, 60_000);

  it('ends (exit 0) when a client sends a message over maxMessageBytes on stdio (the stream still open)', async () => {
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'mcp', 'serve', fixture('agent.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => void child.kill('SIGKILL'));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise<void>((ready) => child.stderr.once('data', () => ready()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    // The server stops reading mid-message: the rest of the write fails with EPIPE here, as expected.
    child.stdin.on('error', () => {});
    // 2 MiB of one unfinished line (the default bound is 1 MiB); the stream stays open.
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":"${'x'.repeat(2 * 1024 * 1024)}`);
    expect(await exited).toBe(0);
    expect(stderr).toContain('serving on stdio');
  }, 60_000);

  it('ends (exit 0) when the client closes stdin', async () => {
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'mcp', 'serve', fixture('agent.ts')], { stdio: ['pipe', 'pipe', 'pipe'] });
    cleanups.push(() => void child.kill('SIGKILL'));
    await new Promise<void>((ready) => child.stderr.once('data', () => ready()));
    const exited = new Promise<number | null>((done) => child.once('exit', done));
    child.stdin.end();
    expect(await exited).toBe(0);
  }, 60_000);

  it('fails with a clear error for a missing module', async () => {
    const { code, stderr } = await lousho(['mcp', 'serve', 'missing-agent.ts']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error LOUSHO_DEPLOY_INVALID: The agent module .*missing-agent\.ts does not exist/m);
  });
});
