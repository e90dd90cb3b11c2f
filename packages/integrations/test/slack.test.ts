import { afterEach, describe, expect, it } from 'vitest';
import { createSlackTool } from '../src/index.js';
import { ctx, startFakeApi } from './fake-api.js';

const TOKEN = 'xoxb-1234-5678-abcdefghijklmnop';
let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

describe('createSlackTool', () => {
  it('posts with chat.postMessage: bearer token, JSON body, thread replies, and needs approval by default', async () => {
    api = await startFakeApi((req) => ({ json: { ok: true, channel: 'C024BE91L', ts: '1700000000.000100', message: { text: req.body.text } } }));
    const tool = createSlackTool({ token: TOKEN, defaultChannel: 'C024BE91L', baseUrl: `${api.url}/api` });
    expect(tool.name).toBe('slack_post_message');
    expect(tool.needsApproval).toBe(true);
    const result = await tool.execute({ text: 'Deploy done :tada:', threadTs: '1699999999.000200' }, ctx());
    expect(result).toEqual({ channel: 'C024BE91L', ts: '1700000000.000100', threadTs: '1699999999.000200' });
    const [req] = api.requests;
    expect(req).toMatchObject({ method: 'POST', path: '/api/chat.postMessage' });
    expect(req!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(req!.body).toEqual({ channel: 'C024BE91L', text: 'Deploy done :tada:', thread_ts: '1699999999.000200' });
    expect(createSlackTool({ token: TOKEN, needsApproval: false }).needsApproval).toBe(false);
  });

  it("turns Slack's { ok: false, error } into a tool error naming the code, never the token", async () => {
    api = await startFakeApi(() => ({ json: { ok: false, error: 'channel_not_found' } }));
    const tool = createSlackTool({ token: TOKEN, baseUrl: `${api.url}/api` });
    const error = await Promise.resolve(tool.execute({ channel: '#nope', text: 'hi' }, ctx())).catch((e: any) => e);
    expect(error).toMatchObject({ code: 'LOUSHO_INTEGRATION_ERROR', message: 'Slack refused the post: channel_not_found.', hint: expect.stringContaining('Invite the bot') });
    await expect(tool.execute({ text: 'no channel' }, ctx())).rejects.toMatchObject({ message: expect.stringContaining('No channel given') });
    expect(JSON.stringify(error)).not.toContain(TOKEN);
  });

  it('waits as Retry-After says on a 429, then posts once', async () => {
    let calls = 0;
    api = await startFakeApi(() => (++calls === 1 ? { status: 429, headers: { 'retry-after': '1' }, json: { ok: false, error: 'ratelimited' } } : { json: { ok: true, channel: 'C1', ts: '1.2' } }));
    const tool = createSlackTool({ token: TOKEN, baseUrl: `${api.url}/api` });
    const started = Date.now();
    expect(await tool.execute({ channel: 'C1', text: 'x' }, ctx())).toMatchObject({ ts: '1.2' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(api.requests).toHaveLength(2);
  });

  it('gives up with LOUSHO_INTEGRATION_RATE_LIMITED when asked to wait longer than allowed, and checks its options at once', async () => {
    api = await startFakeApi(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const tool = createSlackTool({ token: TOKEN, baseUrl: `${api.url}/api` });
    await expect(tool.execute({ channel: 'C1', text: 'x' }, ctx())).rejects.toMatchObject({ code: 'LOUSHO_INTEGRATION_RATE_LIMITED', message: expect.stringContaining('3600 s') });
    expect(api.requests).toHaveLength(1);
    expect(() => createSlackTool({ token: '' })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });

  it('stops waiting when the run is stopped', async () => {
    api = await startFakeApi(() => ({ status: 429, headers: { 'retry-after': '30' } }));
    const tool = createSlackTool({ token: TOKEN, baseUrl: `${api.url}/api` });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    await expect(tool.execute({ channel: 'C1', text: 'x' }, ctx(controller.signal))).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
