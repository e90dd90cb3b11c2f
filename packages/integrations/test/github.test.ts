import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { createGitHubTools } from '../src/index.js';
import { nextLink } from '../src/github.js';
import { ctx, startFakeApi, type SeenRequest } from './fake-api.js';

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';
let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const issue = (n: number, extra: Record<string, unknown> = {}) => ({
  number: n,
  title: `Issue ${n}`,
  state: 'open',
  body: `Body ${n}`,
  html_url: `https://github.com/acme/app/issues/${n}`,
  user: { login: 'octocat' },
  labels: [{ name: 'bug' }],
  comments: 2,
  ...extra,
});

function expectGitHubHeaders(req: SeenRequest) {
  expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
  expect(req.headers.accept).toBe('application/vnd.github+json');
  expect(req.headers['x-github-api-version']).toBe('2022-11-28');
  expect(req.headers['user-agent']).toBeTruthy();
}

describe('createGitHubTools', () => {
  it('reads need no approval, writes do; names and paths follow the REST API', async () => {
    api = await startFakeApi((req) => {
      if (req.method === 'GET' && req.path === '/repos/acme/app/issues/7') return { json: issue(7, { pull_request: { url: 'x' } }) };
      if (req.method === 'POST' && req.path === '/repos/acme/app/issues') return { status: 201, json: issue(8, { title: req.body.title, body: req.body.body, labels: req.body.labels.map((name: string) => ({ name })) }) };
      if (req.method === 'POST' && req.path === '/repos/other/lib/issues/3/comments') return { status: 201, json: { id: 99, html_url: 'https://github.com/other/lib/issues/3#issuecomment-99' } };
      return { status: 404, json: { message: 'Not Found' } };
    });
    const [get, list, create, comment] = createGitHubTools({ token: TOKEN, owner: 'acme', repo: 'app', baseUrl: api.url });
    expect([get, list, create, comment].map((t) => [t.name, t.needsApproval ?? false])).toEqual([
      ['github_get_issue', false],
      ['github_list_issues', false],
      ['github_create_issue', true],
      ['github_comment_issue', true],
    ]);
    expect(await get.execute({ number: 7 }, ctx())).toEqual({
      number: 7, title: 'Issue 7', state: 'open', body: 'Body 7', url: 'https://github.com/acme/app/issues/7', author: 'octocat', labels: ['bug'], comments: 2, isPullRequest: true,
    });
    expect(await create.execute({ title: 'Crash on save', body: 'Steps…', labels: ['bug', 'p1'] }, ctx())).toMatchObject({ number: 8, title: 'Crash on save', labels: ['bug', 'p1'] });
    expect(await comment.execute({ owner: 'other', repo: 'lib', number: 3, body: 'Fixed in #9' }, ctx())).toEqual({ id: 99, url: 'https://github.com/other/lib/issues/3#issuecomment-99' });
    for (const req of api.requests) expectGitHubHeaders(req);
    expect(api.requests[1]!.body).toEqual({ title: 'Crash on save', body: 'Steps…', labels: ['bug', 'p1'] });
    expect(api.requests[1]!.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(api.requests[2]!.body).toEqual({ body: 'Fixed in #9' });
    await expect(get.execute({ number: 404 }, ctx())).rejects.toMatchObject({ code: 'LOUSHO_INTEGRATION_ERROR', status: 404, message: 'GitHub answered HTTP 404 to GET /repos/acme/app/issues/404: Not Found' });
  });

  it('follows Link rel="next" pages up to the limit, with the query only on the first request', async () => {
    api = await startFakeApi((req, url) => {
      const page = Number(req.query.get('page') ?? 1);
      const next = page < 3 ? `<${url}/repositories/42/issues?state=all&per_page=2&page=${page + 1}>; rel="next", <${url}/repositories/42/issues?page=3>; rel="last"` : undefined;
      return { json: [issue(page * 2 - 1), issue(page * 2)], headers: next ? { link: next } : undefined };
    });
    const [, list] = createGitHubTools({ token: TOKEN, owner: 'acme', repo: 'app', baseUrl: api.url });
    const result = await list.execute({ state: 'all', labels: ['bug', 'ui'], limit: 5 }, ctx());
    expect(result.issues.map((i) => i.number)).toEqual([1, 2, 3, 4, 5]);
    expect(api.requests.map((r) => `${r.path}?${r.query}`)).toEqual([
      '/repos/acme/app/issues?state=all&labels=bug%2Cui&per_page=5',
      '/repositories/42/issues?state=all&per_page=2&page=2',
      '/repositories/42/issues?state=all&per_page=2&page=3',
    ]);
    expect(nextLink('<https://a/x?page=2>; rel="prev next"')).toBe('https://a/x?page=2');
    expect(nextLink('<https://a/x?page=1>; rel="prev"')).toBeUndefined();
  });

  it('waits out a primary rate limit (403, x-ratelimit-remaining: 0) until x-ratelimit-reset', async () => {
    let calls = 0;
    api = await startFakeApi(() =>
      ++calls === 1
        ? { status: 403, headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 1) }, json: { message: 'API rate limit exceeded' } }
        : { json: issue(1) },
    );
    const [get] = createGitHubTools({ token: TOKEN, owner: 'acme', repo: 'app', baseUrl: api.url });
    expect(await get.execute({ number: 1 }, ctx())).toMatchObject({ number: 1 });
    expect(calls).toBe(2);
  });

  it('a plain 403 (no rate limit) is a permission error, and the token never appears in errors', async () => {
    api = await startFakeApi(() => ({ status: 403, json: { message: `Resource not accessible by integration (token ${TOKEN})` } }));
    const [get] = createGitHubTools({ token: TOKEN, owner: 'acme', repo: 'app', baseUrl: api.url });
    const error = await Promise.resolve(get.execute({ number: 1 }, ctx())).catch((e: any) => e);
    expect(error).toMatchObject({ status: 403, hint: expect.stringContaining('credentials') });
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).toContain('[redacted]');
    expect(api.requests).toHaveLength(1);
  });

  it('in an agent: a read runs at once, creating an issue pauses for approval', async () => {
    api = await startFakeApi((req) => (req.method === 'GET' ? { json: issue(1) } : { status: 201, json: issue(2) }));
    const agent = createAgent({
      provider: mockModel([
        { toolCalls: [{ name: 'github_get_issue', args: { number: 1 } }] },
        { toolCalls: [{ name: 'github_create_issue', args: { title: 'Follow-up' } }] },
        'Created #2.',
      ]),
      tools: [...createGitHubTools({ token: TOKEN, owner: 'acme', repo: 'app', baseUrl: api.url })],
    });
    const paused = await agent.send('Look at #1 and open a follow-up');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(api.requests.map((r) => r.method)).toEqual(['GET']);
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Created #2.');
    expect(api.requests.map((r) => r.method)).toEqual(['GET', 'POST']);
  });
});
