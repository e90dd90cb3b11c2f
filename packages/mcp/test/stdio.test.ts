import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAgent, ERROR_CODES, type AgentStreamEvent, type ToolExecutionContext } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { connectMcp, type McpConnection } from '../src/index.js';
import { BROKEN_SERVER, failureOf, isRunning, recordingLogger, serverCommand, waitUntil } from './helpers.js';
import { PIXEL_PNG } from './servers/basic-server.mjs';

const ctx = (signal?: AbortSignal): ToolExecutionContext => ({ toolCallId: 'call_1', messages: [], ...(signal ? { abortSignal: signal } : {}) });

describe('a stdio MCP server (a child process)', () => {
  const logger = recordingLogger();
  let mcp: McpConnection;
  const stdout = vi.spyOn(process.stdout, 'write');

  beforeAll(async () => {
    mcp = await connectMcp({ basic: { ...serverCommand('basic-server.mjs', 'stdio'), timeoutMs: 1500 } }, { logger });
  });
  afterAll(async () => {
    await mcp.close();
    stdout.mockRestore();
  });

  it('lists every tool as <server>__<tool>, with its description, title and the schema the server gave', () => {
    expect(Object.keys(mcp.tools).sort()).toEqual(
      ['add', 'big', 'chart', 'crash', 'echo', 'fail', 'hang', 'picture', 'resources', 'steps', 'whoami'].map((name) => `basic__${name}`),
    );
    const echo = mcp.tools.basic__echo!;
    expect(echo).toMatchObject({ name: 'basic__echo', description: 'Repeats the text', displayName: 'Echo' });
    expect(echo.parameters).toMatchObject({ type: 'object', properties: { text: { type: 'string' } }, required: ['text'] });
    expect(mcp.clients.basic).toBeDefined();
  });

  it("the server's stderr goes to the logger, never to the host's stdout", async () => {
    await logger.waitFor(/\[mcp:basic\] basic server ready/);
    expect(stdout.mock.calls.map(([chunk]) => String(chunk)).join('')).not.toContain('basic server ready');
  });

  it('through an agent: arguments are validated (and defaults applied) before the server is called', async () => {
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'basic__echo', args: { text: 7 } }, { name: 'basic__echo', args: { text: 'hi' } }] }, 'ok']),
      tools: mcp.tools,
    });
    const result = await agent.send('go');
    const [invalid, valid] = result.toolCalls;
    expect(invalid).toMatchObject({ isError: true, error: { kind: 'validation', error: 'ToolArgumentsValidationError' } });
    expect(valid).toMatchObject({ isError: false, args: { text: 'hi', times: 1 }, result: { text: 'hi', content: [{ type: 'text', text: 'hi' }] } });
  });

  it('structuredContent is the result; with non-text parts they are kept next to it', async () => {
    expect(await mcp.tools.basic__add!.execute!({ a: 2, b: 3 }, ctx())).toEqual({ sum: 5 });
    expect(await mcp.tools.basic__chart!.execute!({}, ctx())).toEqual({
      structuredContent: { points: 3 },
      text: '{"points":3}',
      content: [{ type: 'image', data: PIXEL_PNG, mimeType: 'image/png' }],
    });
  });

  it('images, audio and resources are kept in order', async () => {
    expect(await mcp.tools.basic__picture!.execute!({}, ctx())).toEqual({
      text: 'Here is a pixel.',
      content: [
        { type: 'text', text: 'Here is a pixel.' },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' },
      ],
    });
    expect(await mcp.tools.basic__resources!.execute!({}, ctx())).toEqual({
      text: '',
      content: [
        { type: 'resource', resource: { uri: 'notes://1', mimeType: 'text/plain', text: 'first note' } },
        { type: 'resource_link', uri: 'notes://2', name: 'second note' },
      ],
    });
  });

  it('isError: the model gets an McpToolError (kind mcp) with the server text, and the run goes on', async () => {
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'basic__fail', args: {} }] }, 'sorry']), tools: mcp.tools }).send('go');
    const message = result.messages.find((m) => m.role === 'tool')!;
    expect(message.isError).toBe(true);
    expect(JSON.parse(message.content as string)).toEqual({ error: 'McpToolError', toolName: 'basic__fail', message: 'The server said no.\nTwice.', kind: 'mcp' });
    expect(result.text).toBe('sorry');
  });

  it('progress notifications become tool.progress events', async () => {
    const events: AgentStreamEvent[] = [];
    const run = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'basic__steps', args: {} }] }, 'ok']), tools: mcp.tools }).stream('go');
    for await (const event of run) events.push(event);
    const progress = events.filter((e) => e.type === 'tool.progress').map((e) => (e as { progress: unknown }).progress);
    expect(progress).toEqual([1, 2, 3].map((i) => ({ progress: i, total: 3, message: `step ${i}` })));
  });

  it("the run's abort signal cancels an in-flight call: the server receives the cancellation", async () => {
    const controller = new AbortController();
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'basic__hang', args: {} }] }, 'never']), tools: mcp.tools });
    const pending = agent.send('go', { signal: controller.signal });
    const started = await logger.waitFor(/hang started \(request (\d+)\)/);
    const requestId = /request (\d+)/.exec(started)![1];
    controller.abort();
    const result = await pending;
    expect(result.finishReason).toBe('aborted');
    await logger.waitFor(new RegExp(`cancelled request ${requestId}`));
  });

  it('a call past timeoutMs ends in an mcp tool error, and the server is told to cancel it', async () => {
    const before = logger.lines.filter((line) => line.includes('cancelled request')).length;
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'basic__hang', args: {} }] }, 'ok']), tools: mcp.tools }).send('go');
    expect(result.toolCalls[0]?.error).toMatchObject({ kind: 'mcp', error: 'McpCallError', message: expect.stringContaining("did not answer the call to 'hang' within 1500 ms") });
    await waitUntil(() => logger.lines.filter((line) => line.includes('cancelled request')).length > before);
  });

  it('a server that crashes mid-call gives the call an mcp error and is started again for the next call', async () => {
    const first = (await mcp.tools.basic__whoami!.execute!({}, ctx())) as { pid: number };
    await expect(mcp.tools.basic__crash!.execute!({}, ctx())).rejects.toMatchObject({
      name: 'McpCallError',
      toolErrorKind: 'mcp',
      message: expect.stringContaining("MCP server 'basic' closed the connection during the call to 'crash'"),
    });
    await waitUntil(() => !isRunning(first.pid));
    const second = (await mcp.tools.basic__whoami!.execute!({}, ctx())) as { pid: number };
    expect(second.pid).not.toBe(first.pid);
    expect(isRunning(second.pid)).toBe(true);
  });
});

describe('a stdio server that answers with more than maxResultBytes', () => {
  let mcp: McpConnection;
  beforeAll(async () => {
    mcp = await connectMcp({ basic: { ...serverCommand('basic-server.mjs', 'stdio'), timeoutMs: 20_000 } }, { maxResultBytes: 64 * 1024 });
  });
  afterAll(() => mcp.close());

  it('the call ends at once with LOUSHO_MCP_RESULT_TOO_LARGE saying what happened, and the connection stays up', async () => {
    const error = await failureOf(mcp.tools.basic__big!.execute!({ bytes: 300_000 }, ctx()));
    expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE, name: 'McpCallError' });
    expect(error.message).toMatch(/MCP server 'basic' answered the call to 'big' with more than the allowed size\. The server's answer is larger than 64 KiB \(maxResultBytes; \d+ bytes read\)/);
    expect(error.message).not.toMatch(/crash/);
    // Just under the limit passes whole, and the same connection answers the next call.
    expect(await mcp.tools.basic__big!.execute!({ bytes: 60_000 }, ctx())).toMatchObject({ text: 'x'.repeat(60_000) });
    expect(await mcp.tools.basic__echo!.execute!({ text: 'still here' }, ctx())).toMatchObject({ text: 'still here' });
  });

  it('over the SDK\'s old 10 MB buffer (reported as "the server may have crashed"): read within a larger limit, refused with the size error under the default', async () => {
    const roomy = await connectMcp({ basic: serverCommand('basic-server.mjs', 'stdio') }, { maxResultBytes: 12 * 1024 * 1024 });
    try {
      const result = (await roomy.tools.basic__big!.execute!({ bytes: 10_500_000 }, ctx())) as { text: string };
      expect(result.text.length).toBe(10_500_000);
    } finally {
      await roomy.close();
    }
    const byDefault = await connectMcp({ basic: serverCommand('basic-server.mjs', 'stdio') });
    try {
      const error = await failureOf(byDefault.tools.basic__big!.execute!({ bytes: 10_500_000 }, ctx()));
      expect(error).toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_RESULT_TOO_LARGE, message: expect.stringContaining('larger than 4 MiB (maxResultBytes') });
    } finally {
      await byDefault.close();
    }
  }, 30_000);

  it('a bound that is not a positive integer is a config error', async () => {
    for (const maxResultBytes of [0, -1, 1.5, '4mb']) {
      await expect(connectMcp({ basic: serverCommand('basic-server.mjs', 'stdio') }, { maxResultBytes } as never)).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG, message: expect.stringContaining('maxResultBytes') });
    }
  });
});

describe('stdio servers that cannot start', () => {
  it('a server that exits at once: the error names the server, its command and what it wrote to stderr', async () => {
    const failing = connectMcp({ notes: { command: process.execPath, args: [BROKEN_SERVER] } });
    failing.catch(() => {});
    await expect(failing).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED, server: 'notes' });
    const error = await failureOf(failing);
    expect(error.message).toContain(`MCP server 'notes' (command: ${process.execPath} ${BROKEN_SERVER})`);
    expect(error.message).toContain('notes database is locked');
  });

  it('a command that does not exist', async () => {
    await expect(connectMcp({ ghost: { command: 'lousho-no-such-command-xyz' } })).rejects.toMatchObject({
      code: ERROR_CODES.LOUSHO_MCP_CONNECT_FAILED,
      message: expect.stringMatching(/MCP server 'ghost' \(command: lousho-no-such-command-xyz\).*not found/),
    });
  });

  it('one failing server closes the ones that did connect', async () => {
    const logger = recordingLogger();
    await expect(connectMcp({ good: serverCommand('basic-server.mjs', 'stdio'), bad: { command: process.execPath, args: [BROKEN_SERVER] } }, { logger })).rejects.toMatchObject({ server: 'bad' });
    // The good one had started (it said so) and was stopped again: no child is left behind.
    await logger.waitFor(/\[mcp:good\] basic server ready/);
  });

  it('bad configs are refused before anything starts', async () => {
    await expect(connectMcp({ 'has space': { command: 'node' } })).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG });
    await expect(connectMcp({ x: {} as never })).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG, message: expect.stringContaining('give a command') });
    await expect(connectMcp({ x: { command: 'node', url: 'http://x' } as never })).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG });
    await expect(connectMcp({ x: { url: 'ftp://example.com' } })).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG });
    await expect(connectMcp({ x: { command: 'node', timeoutMs: 0 } })).rejects.toMatchObject({ code: ERROR_CODES.LOUSHO_INVALID_CONFIG });
  });
});

describe('close()', () => {
  it('stops the stdio server process', async () => {
    const mcp = await connectMcp({ basic: serverCommand('basic-server.mjs', 'stdio') });
    const { pid } = (await mcp.tools.basic__whoami!.execute!({}, ctx())) as { pid: number };
    expect(isRunning(pid)).toBe(true);
    await mcp.close();
    await waitUntil(() => !isRunning(pid));
  });
});
