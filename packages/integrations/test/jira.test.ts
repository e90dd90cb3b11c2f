import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createJiraTools, fromAdf, toAdf } from '../src/index.js';
import { ctx, startFakeApi } from './fake-api.js';

const EMAIL = 'bot@acme.com';
const TOKEN = 'ATATT3xFfGF0-secret-token';
let api: Awaited<ReturnType<typeof startFakeApi>> | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const jiraIssue = (key: string) => ({
  id: '10001',
  key,
  fields: {
    summary: `Summary of ${key}`,
    status: { name: 'To Do' },
    issuetype: { name: 'Bug' },
    priority: { name: 'High' },
    assignee: null,
    reporter: { displayName: 'Ada' },
    description: toAdf('First line\nsecond line\n\nSecond paragraph'),
    created: '2026-11-30T10:00:00.000+0000',
    updated: '2026-11-30T11:00:00.000+0000',
  },
});

describe('createJiraTools', () => {
  it('basic auth, REST v3 paths, ADF bodies; writes need approval', async () => {
    api = await startFakeApi((req) => {
      if (req.method === 'GET' && req.path === '/rest/api/3/issue/SUP-12') return { json: jiraIssue('SUP-12') };
      if (req.method === 'POST' && req.path === '/rest/api/3/issue') return { status: 201, json: { id: '10002', key: 'SUP-13', self: 'x' } };
      if (req.method === 'POST' && req.path === '/rest/api/3/issue/SUP-12/comment') return { status: 201, json: { id: '5001' } };
      return { status: 404, json: { errorMessages: ['Issue does not exist or you do not have permission to see it.'], errors: {} } };
    });
    const [get, , create, comment] = createJiraTools({ baseUrl: `${api.url}/`, email: EMAIL, apiToken: TOKEN, defaultProject: 'SUP' });
    expect([get, create, comment].map((t) => t.needsApproval ?? false)).toEqual([false, true, true]);
    expect(await get.execute({ key: 'SUP-12' }, ctx())).toEqual({
      key: 'SUP-12', url: `${api.url}/browse/SUP-12`, summary: 'Summary of SUP-12', status: 'To Do', type: 'Bug', priority: 'High', assignee: null, reporter: 'Ada',
      description: 'First line\nsecond line\n\nSecond paragraph', created: '2026-11-30T10:00:00.000+0000', updated: '2026-11-30T11:00:00.000+0000',
    });
    expect(api.requests[0]!.query.get('fields')).toBe('summary,status,issuetype,priority,assignee,reporter,description,created,updated');
    expect(await create.execute({ summary: 'Login fails', description: 'Steps:\n1. open', issueType: 'Bug' }, ctx())).toEqual({ key: 'SUP-13', id: '10002', url: `${api.url}/browse/SUP-13` });
    expect(api.requests[1]!.body).toEqual({
      fields: {
        project: { key: 'SUP' },
        summary: 'Login fails',
        issuetype: { name: 'Bug' },
        description: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Steps:' }, { type: 'hardBreak' }, { type: 'text', text: '1. open' }] }] },
      },
    });
    expect(await comment.execute({ key: 'SUP-12', body: 'On it.' }, ctx())).toEqual({ id: '5001', url: `${api.url}/browse/SUP-12?focusedCommentId=5001` });
    expect(api.requests[2]!.body).toEqual({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'On it.' }] }] } });
    const basic = `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`;
    for (const req of api.requests) expect(req.headers.authorization).toBe(basic);
    const missing = await Promise.resolve(get.execute({ key: 'SUP-404' }, ctx())).catch((e: any) => e);
    expect(missing).toMatchObject({ status: 404, message: expect.stringContaining('Issue does not exist') });
    expect(missing.message).not.toContain(TOKEN);
  });

  it('searches with POST /search/jql and follows nextPageToken until isLast or the limit', async () => {
    api = await startFakeApi((req) => {
      const page = req.body.nextPageToken ? Number(req.body.nextPageToken.slice(1)) : 1;
      return { json: { issues: [jiraIssue(`SUP-${page * 2 - 1}`), jiraIssue(`SUP-${page * 2}`)], ...(page < 3 ? { nextPageToken: `p${page + 1}`, isLast: false } : { isLast: true }) } };
    });
    const [, search] = createJiraTools({ baseUrl: api.url, email: EMAIL, apiToken: TOKEN });
    const all = await search.execute({ jql: 'project = SUP ORDER BY created DESC', limit: 100 }, ctx());
    expect(all.issues.map((i) => i.key)).toEqual(['SUP-1', 'SUP-2', 'SUP-3', 'SUP-4', 'SUP-5', 'SUP-6']);
    expect(api.requests.map((r) => [r.path, r.body.nextPageToken ?? null, r.body.maxResults])).toEqual([
      ['/rest/api/3/search/jql', null, 100],
      ['/rest/api/3/search/jql', 'p2', 98],
      ['/rest/api/3/search/jql', 'p3', 96],
    ]);
    expect(api.requests[0]!.body.jql).toBe('project = SUP ORDER BY created DESC');
    const few = await search.execute({ jql: 'x', limit: 3 }, ctx());
    expect(few.count).toBe(3);
  });

  it('reports field errors of a 400 and waits on 429 Retry-After', async () => {
    let calls = 0;
    api = await startFakeApi(() =>
      ++calls === 1 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 400, json: { errorMessages: [], errors: { summary: 'You must specify a summary of the issue.' } } },
    );
    const [, , create] = createJiraTools({ baseUrl: api.url, email: EMAIL, apiToken: TOKEN });
    await expect(create.execute({ project: 'SUP', summary: 'x', issueType: 'Task' }, ctx())).rejects.toMatchObject({ status: 400, message: expect.stringContaining('summary: You must specify a summary') });
    expect(calls).toBe(2);
    await expect(create.execute({ summary: 'x', issueType: 'Task' }, ctx())).rejects.toMatchObject({ message: expect.stringContaining('No project given') });
  });

  it('text survives a round trip through ADF', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ minLength: 1 }).filter((l) => !/[\r\n]/.test(l) && l.trim() === l && l !== ''), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }), (paragraphs) => {
        const text = paragraphs.map((lines) => lines.join('\n')).join('\n\n');
        expect(fromAdf(toAdf(text))).toBe(text);
      }),
    );
  });
});
