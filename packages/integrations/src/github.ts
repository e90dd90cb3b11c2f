import { defineTool } from '@lousho/core';
import { z } from 'zod';
import { IntegrationError, requireOption, RestClient, retryAfterMs, type FetchLike, type RetryPolicy } from './rest.js';

/** Options of `createGitHubTools()`: the token and defaults. Writes (issues, comments) need approval; reads do not. */
export interface GitHubToolsOptions {
  /** A fine-grained or classic token with access to the repositories the agent works on. */
  token: string;
  /** Default owner and repository when the model names none. */
  owner?: string;
  repo?: string;
  /** Ask a person before creating issues or comments (default true). */
  needsApproval?: boolean;
  /** The REST API root (default `https://api.github.com`; GitHub Enterprise: `https://HOST/api/v3`). */
  baseUrl?: string;
  fetch?: FetchLike;
  retry?: RetryPolicy;
}

const repoArgs = {
  owner: z.string().min(1).optional().describe('Repository owner; the default when left out'),
  repo: z.string().min(1).optional().describe('Repository name; the default when left out'),
};

/**
 * GitHub issue tools over the REST API: `github_get_issue`, `github_list_issues` (reads, no approval;
 * pages followed through the `Link` header), `github_create_issue` and `github_comment_issue`
 * (writes, approval by default). Rate limits (429, or 403 with `x-ratelimit-remaining: 0` or
 * `Retry-After`) are waited out as GitHub asks.
 */
export function createGitHubTools(options: GitHubToolsOptions) {
  const token = requireOption('GitHub', 'createGitHubTools', 'token', options?.token);
  const client = new RestClient({
    service: 'GitHub',
    baseUrl: options.baseUrl ?? 'https://api.github.com',
    headers: { authorization: `Bearer ${token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'lousho-agent' },
    secrets: [token],
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    errorText: (body) => (typeof (body as { message?: unknown })?.message === 'string' ? (body as { message: string }).message : undefined),
    // The primary limit says when it resets (epoch seconds); the secondary one sends Retry-After.
    waitMs: (response) => {
      const reset = Number(response.headers.get('x-ratelimit-reset'));
      return reset > 0 ? Math.max(0, reset * 1000 - Date.now()) : undefined;
    },
    isRateLimited: (response) =>
      response.status === 429 || (response.status === 403 && (response.headers.get('x-ratelimit-remaining') === '0' || retryAfterMs(response.headers) !== undefined)),
  });
  const where = (args: { owner?: string | undefined; repo?: string | undefined }) => {
    const owner = args.owner ?? options.owner;
    const repo = args.repo ?? options.repo;
    if (!owner || !repo) throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'GitHub', 'No repository given and the tools have no default owner/repo.', { hint: 'Name owner and repo.' });
    return `repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  };
  const approval = options.needsApproval ?? true;

  const getIssue = defineTool({
    name: 'github_get_issue',
    displayName: 'GitHub issue',
    description: 'Read one GitHub issue or pull request: title, state, body, labels, author.',
    input: z.object({ ...repoArgs, number: z.number().int().positive() }),
    async execute(args, ctx) {
      const { body } = await client.request<GitHubIssue>('GET', `${where(args)}/issues/${args.number}`, { signal: ctx.abortSignal });
      return issueView(body);
    },
  });

  const listIssues = defineTool({
    name: 'github_list_issues',
    displayName: 'GitHub issues',
    description: 'List issues of a repository, newest first.',
    input: z.object({
      ...repoArgs,
      state: z.enum(['open', 'closed', 'all']).default('open'),
      labels: z.array(z.string()).optional().describe('Only issues with all of these labels'),
      limit: z.number().int().min(1).max(500).default(30),
    }),
    async execute(args, ctx) {
      const issues: ReturnType<typeof issueView>[] = [];
      let next: string | undefined = `${where(args)}/issues`;
      let query: Record<string, string | number | undefined> | undefined = { state: args.state, labels: args.labels?.join(','), per_page: Math.min(args.limit, 100) };
      while (next && issues.length < args.limit) {
        const page: { headers: Headers; body: GitHubIssue[] } = await client.request<GitHubIssue[]>('GET', next, { ...(query ? { query } : {}), signal: ctx.abortSignal });
        for (const issue of page.body) if (issues.length < args.limit) issues.push(issueView(issue));
        next = nextLink(page.headers.get('link'));
        query = undefined; // the next link carries the query
      }
      return { issues, count: issues.length };
    },
  });

  const createIssue = defineTool({
    name: 'github_create_issue',
    displayName: 'Create GitHub issue',
    description: 'Open a new issue in a repository.',
    input: z.object({ ...repoArgs, title: z.string().min(1).max(256), body: z.string().max(65_536).optional(), labels: z.array(z.string()).optional(), assignees: z.array(z.string()).optional() }),
    needsApproval: approval,
    async execute(args, ctx) {
      const { body } = await client.request<GitHubIssue>('POST', `${where(args)}/issues`, {
        body: { title: args.title, ...(args.body !== undefined ? { body: args.body } : {}), ...(args.labels ? { labels: args.labels } : {}), ...(args.assignees ? { assignees: args.assignees } : {}) },
        signal: ctx.abortSignal,
      });
      return issueView(body);
    },
  });

  const comment = defineTool({
    name: 'github_comment_issue',
    displayName: 'Comment on GitHub',
    description: 'Add a comment to an issue or pull request.',
    input: z.object({ ...repoArgs, number: z.number().int().positive(), body: z.string().min(1).max(65_536) }),
    needsApproval: approval,
    async execute(args, ctx) {
      const { body } = await client.request<{ id: number; html_url: string }>('POST', `${where(args)}/issues/${args.number}/comments`, { body: { body: args.body }, signal: ctx.abortSignal });
      return { id: body.id, url: body.html_url };
    },
  });

  return [getIssue, listIssues, createIssue, comment] as const;
}

interface GitHubIssue {
  number: number;
  title: string;
  state: string;
  body?: string | null;
  html_url: string;
  user?: { login: string } | null;
  labels?: (string | { name?: string })[];
  comments?: number;
  pull_request?: unknown;
  created_at?: string;
}

function issueView(issue: GitHubIssue) {
  return {
    number: issue.number,
    title: issue.title,
    state: issue.state,
    body: issue.body ?? '',
    url: issue.html_url,
    author: issue.user?.login ?? null,
    labels: (issue.labels ?? []).map((l) => (typeof l === 'string' ? l : (l.name ?? ''))).filter(Boolean),
    comments: issue.comments ?? 0,
    isPullRequest: issue.pull_request !== undefined,
  };
}

/** The `rel="next"` URL of a `Link` header (RFC 8288), if any. */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(',')) {
    const match = /<([^>]+)>\s*;(.*)/.exec(part.trim());
    if (match && /(^|;)\s*rel="?([^";]*\s)?next(\s[^";]*)?"?\s*(;|$)/.test(match[2]!)) return match[1];
  }
  return undefined;
}
