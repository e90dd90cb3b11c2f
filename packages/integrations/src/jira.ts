import { defineTool } from '@lousho/core';
import { z } from 'zod';
import { IntegrationError, requireOption, RestClient, type FetchLike, type RetryPolicy } from './rest.js';

/** Options of `createJiraTools()`: the site, credentials and defaults. Writes need approval; reads do not. */
export interface JiraToolsOptions {
  /** Your site, e.g. `https://acme.atlassian.net`. */
  baseUrl: string;
  /** The Atlassian account email the API token belongs to. */
  email: string;
  /** An API token (id.atlassian.com → Security → API tokens). */
  apiToken: string;
  /** The project key used when the model names none (e.g. `SUP`). */
  defaultProject?: string;
  /** Ask a person before creating issues or comments (default true). */
  needsApproval?: boolean;
  fetch?: FetchLike;
  retry?: RetryPolicy;
}

const ISSUE_FIELDS = ['summary', 'status', 'issuetype', 'priority', 'assignee', 'reporter', 'description', 'created', 'updated'];

/**
 * Jira Cloud tools over REST API v3: `jira_get_issue`, `jira_search` (JQL, pages followed with
 * `nextPageToken`; reads, no approval), `jira_create_issue` and `jira_add_comment` (writes, approval by
 * default). Text goes to Jira as Atlassian Document Format and comes back as plain text.
 */
export function createJiraTools(options: JiraToolsOptions) {
  const baseUrl = requireOption('Jira', 'createJiraTools', 'baseUrl', options?.baseUrl).replace(/\/+$/, '');
  const email = requireOption('Jira', 'createJiraTools', 'email', options.email);
  const apiToken = requireOption('Jira', 'createJiraTools', 'apiToken', options.apiToken);
  const basic = base64(`${email}:${apiToken}`);
  const client = new RestClient({
    service: 'Jira',
    baseUrl: `${baseUrl}/rest/api/3`,
    headers: { authorization: `Basic ${basic}` },
    secrets: [apiToken, basic],
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.retry ? { retry: options.retry } : {}),
    errorText: jiraErrorText,
  });
  const approval = options.needsApproval ?? true;
  const view = (issue: JiraIssue) => issueView(issue, baseUrl);

  const getIssue = defineTool({
    name: 'jira_get_issue',
    displayName: 'Jira issue',
    description: 'Read one Jira issue by key (e.g. SUP-12): summary, status, type, priority, people, description.',
    input: z.object({ key: z.string().regex(/^[A-Z][A-Z0-9_]+-\d+$/, 'an issue key like SUP-12') }),
    async execute({ key }, ctx) {
      const { body } = await client.request<JiraIssue>('GET', `issue/${encodeURIComponent(key)}`, { query: { fields: ISSUE_FIELDS.join(',') }, signal: ctx.abortSignal });
      return view(body);
    },
  });

  const search = defineTool({
    name: 'jira_search',
    displayName: 'Jira search',
    description: 'Find Jira issues with a JQL query, e.g. `project = SUP AND status = "To Do" ORDER BY created DESC`.',
    input: z.object({ jql: z.string().min(1), limit: z.number().int().min(1).max(500).default(25) }),
    async execute({ jql, limit }, ctx) {
      const issues: ReturnType<typeof view>[] = [];
      let nextPageToken: string | undefined;
      do {
        const { body } = await client.request<JiraSearchPage>('POST', 'search/jql', {
          body: { jql, fields: ISSUE_FIELDS, maxResults: Math.min(100, limit - issues.length), ...(nextPageToken ? { nextPageToken } : {}) },
          signal: ctx.abortSignal,
        });
        for (const issue of body.issues ?? []) if (issues.length < limit) issues.push(view(issue));
        nextPageToken = body.isLast === false || (body.isLast === undefined && body.nextPageToken) ? body.nextPageToken : undefined;
      } while (nextPageToken && issues.length < limit);
      return { issues, count: issues.length };
    },
  });

  const createIssue = defineTool({
    name: 'jira_create_issue',
    displayName: 'Create Jira issue',
    description: `Create a Jira issue${options.defaultProject ? ` (project ${options.defaultProject} unless another is named)` : ''}.`,
    input: z.object({
      project: z.string().min(1).optional().describe('Project key; the default when left out'),
      summary: z.string().min(1).max(255),
      description: z.string().max(32_000).optional(),
      issueType: z.string().default('Task').describe('Task, Bug, Story, ...'),
    }),
    needsApproval: approval,
    async execute(args, ctx) {
      const project = args.project ?? options.defaultProject;
      if (!project) throw new IntegrationError('LOUSHO_INTEGRATION_ERROR', 'Jira', 'No project given and the tools have no defaultProject.', { hint: 'Name the project key.' });
      const { body } = await client.request<{ id: string; key: string }>('POST', 'issue', {
        body: { fields: { project: { key: project }, summary: args.summary, issuetype: { name: args.issueType }, ...(args.description ? { description: toAdf(args.description) } : {}) } },
        signal: ctx.abortSignal,
      });
      return { key: body.key, id: body.id, url: `${baseUrl}/browse/${body.key}` };
    },
  });

  const comment = defineTool({
    name: 'jira_add_comment',
    displayName: 'Comment on Jira',
    description: 'Add a comment to a Jira issue.',
    input: z.object({ key: z.string().regex(/^[A-Z][A-Z0-9_]+-\d+$/, 'an issue key like SUP-12'), body: z.string().min(1).max(32_000) }),
    needsApproval: approval,
    async execute({ key, body: text }, ctx) {
      const { body } = await client.request<{ id: string }>('POST', `issue/${encodeURIComponent(key)}/comment`, { body: { body: toAdf(text) }, signal: ctx.abortSignal });
      return { id: body.id, url: `${baseUrl}/browse/${key}?focusedCommentId=${body.id}` };
    },
  });

  return [getIssue, search, createIssue, comment] as const;
}

interface JiraIssue {
  id: string;
  key: string;
  fields?: {
    summary?: string;
    status?: { name?: string };
    issuetype?: { name?: string };
    priority?: { name?: string } | null;
    assignee?: { displayName?: string } | null;
    reporter?: { displayName?: string } | null;
    description?: AdfNode | null;
    created?: string;
    updated?: string;
  };
}

interface JiraSearchPage {
  issues?: JiraIssue[];
  nextPageToken?: string;
  isLast?: boolean;
}

function issueView(issue: JiraIssue, baseUrl: string) {
  const f = issue.fields ?? {};
  return {
    key: issue.key,
    url: `${baseUrl}/browse/${issue.key}`,
    summary: f.summary ?? '',
    status: f.status?.name ?? null,
    type: f.issuetype?.name ?? null,
    priority: f.priority?.name ?? null,
    assignee: f.assignee?.displayName ?? null,
    reporter: f.reporter?.displayName ?? null,
    description: f.description ? fromAdf(f.description) : '',
    created: f.created ?? null,
    updated: f.updated ?? null,
  };
}

/** An Atlassian Document Format node (the subset this module reads and writes). */
export interface AdfNode {
  type: string;
  text?: string;
  version?: number;
  content?: AdfNode[];
}

/** Plain text → ADF: blank lines separate paragraphs, single line breaks become hard breaks. */
export function toAdf(text: string): AdfNode {
  const paragraphs = text.replace(/\r\n?/g, '\n').split(/\n{2,}/).filter((p) => p.trim() !== '');
  return {
    type: 'doc',
    version: 1,
    content: paragraphs.map((paragraph) => ({
      type: 'paragraph',
      content: paragraph.split('\n').flatMap((line, i) => [...(i > 0 ? [{ type: 'hardBreak' }] : []), ...(line ? [{ type: 'text', text: line }] : [])]),
    })),
  };
}

/** ADF → plain text: the text of every node, blocks separated by blank lines. */
export function fromAdf(node: AdfNode): string {
  const walk = (n: AdfNode): string => {
    if (n.type === 'text') return n.text ?? '';
    if (n.type === 'hardBreak') return '\n';
    if (n.type === 'mention' || n.type === 'emoji') return (n as { attrs?: { text?: string } }).attrs?.text ?? '';
    const inner = (n.content ?? []).map(walk);
    if (n.type === 'doc' || n.type === 'table') return inner.filter((t) => t !== '').join('\n\n');
    if (n.type === 'bulletList' || n.type === 'orderedList') return inner.join('\n');
    return inner.join('');
  };
  return walk(node).trim();
}

function jiraErrorText(body: unknown): string | undefined {
  const b = body as { errorMessages?: unknown; errors?: unknown } | undefined;
  if (!b || typeof b !== 'object') return undefined;
  const messages = Array.isArray(b.errorMessages) ? b.errorMessages.filter((m): m is string => typeof m === 'string') : [];
  const fields = b.errors && typeof b.errors === 'object' ? Object.entries(b.errors as Record<string, unknown>).map(([k, v]) => `${k}: ${String(v)}`) : [];
  const all = [...messages, ...fields];
  return all.length ? all.join('; ') : undefined;
}

function base64(text: string): string {
  let binary = '';
  for (const byte of new TextEncoder().encode(text)) binary += String.fromCharCode(byte);
  return btoa(binary);
}
