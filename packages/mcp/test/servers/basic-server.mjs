/* global process, setTimeout */
// A real MCP server (official SDK) for the tests: run as `node basic-server.mjs` it speaks stdio;
// the HTTP tests import createBasicServer() and mount it on a loopback port.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

// A 1x1 transparent PNG.
export const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** `log` receives what the server wants the test to see (stderr for stdio, an array for HTTP). */
export function createBasicServer(log = (line) => process.stderr.write(`${line}\n`)) {
  const server = new McpServer({ name: 'basic', version: '1.0.0' });

  server.registerTool('echo', { title: 'Echo', description: 'Repeats the text', inputSchema: { text: z.string(), times: z.number().int().min(1).max(3).default(1) } }, async ({ text, times }) => ({
    content: [{ type: 'text', text: Array(times).fill(text).join(' ') }],
  }));

  server.registerTool('add', { description: 'Adds two numbers', inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } }, async ({ a, b }) => ({
    content: [{ type: 'text', text: String(a + b) }],
    structuredContent: { sum: a + b },
  }));

  server.registerTool('big', { description: 'Answers with `bytes` characters of text', inputSchema: { bytes: z.number().int().min(0) } }, async ({ bytes }) => ({
    content: [{ type: 'text', text: 'x'.repeat(bytes) }],
  }));

  server.registerTool('fail', { description: 'Always answers isError' }, async () => ({
    isError: true,
    content: [{ type: 'text', text: 'The server said no.' }, { type: 'text', text: 'Twice.' }],
  }));

  server.registerTool('picture', { description: 'Returns text, an image and audio' }, async () => ({
    content: [
      { type: 'text', text: 'Here is a pixel.' },
      { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
    ],
  }));

  server.registerTool('resources', { description: 'Returns an embedded resource and a link' }, async () => ({
    content: [
      { type: 'resource', resource: { uri: 'notes://1', mimeType: 'text/plain', text: 'first note' } },
      { type: 'resource_link', uri: 'notes://2', name: 'second note' },
    ],
  }));

  server.registerTool('chart', { description: 'Structured content plus an image', outputSchema: { points: z.number() } }, async () => ({
    content: [{ type: 'text', text: '{"points":3}' }, { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }],
    structuredContent: { points: 3 },
  }));

  server.registerTool('whoami', { description: 'The process id of the server' }, async () => ({
    content: [{ type: 'text', text: String(process.pid) }],
    structuredContent: { pid: process.pid },
  }));

  server.registerTool('crash', { description: 'Exits the process in the middle of the call' }, async () => {
    log('crashing now');
    setTimeout(() => process.exit(3), 10);
    return new Promise(() => {});
  });

  // Tools without an inputSchema get `extra` as their only argument.
  server.registerTool('hang', { description: 'Never answers; reports a cancellation' }, async (extra) => {
    log(`hang started (request ${String(extra.requestId)})`);
    return new Promise((resolve) => {
      extra.signal.addEventListener('abort', () => {
        log(`cancelled request ${String(extra.requestId)}: ${String(extra.signal.reason)}`);
        resolve({ content: [{ type: 'text', text: 'too late' }] });
      });
    });
  });

  server.registerTool('steps', { description: 'Reports progress, then answers' }, async (extra) => {
    const token = extra._meta?.progressToken;
    for (let i = 1; i <= 3; i++) {
      if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: i, total: 3, message: `step ${i}` } });
      // Work between the steps. (The SDK client handles a notification a tick after it arrives, so
      // progress sent in the same instant as the answer would find the call already finished.)
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return { content: [{ type: 'text', text: 'done' }] };
  });

  return server;
}

if (process.argv[2] === 'stdio') {
  const server = createBasicServer();
  process.stderr.write('basic server ready\n');
  // Exit when the client closes stdin, as stdio servers should.
  process.stdin.on('end', () => process.exit(0));
  await server.connect(new StdioServerTransport());
}
