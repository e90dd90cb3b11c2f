// Which reference section each example runs, and which sections wait for a feature still being built.

/** A reference page section (`## ...` or `### ...` heading) and its page. */
export interface Section {
  page: 'lousho-api-overview.md' | 'lousho-tools.md';
  heading: string;
}

/** Each example program and the sections whose snippets it runs. */
export const EXAMPLES: Record<string, Section[]> = {
  'dynamic-config.ts': [{ page: 'lousho-api-overview.md', heading: 'Dynamic config' }],
  'cancellation.ts': [{ page: 'lousho-api-overview.md', heading: 'Cancellation' }],
  'finish-reasons.ts': [{ page: 'lousho-api-overview.md', heading: 'Finish reasons' }],
  'parallel-tool-calls.ts': [{ page: 'lousho-api-overview.md', heading: 'Parallel tool calls' }],
  'define-tool-approval.ts': [{ page: 'lousho-api-overview.md', heading: 'Tools' }],
  'mcp-tools.ts': [{ page: 'lousho-api-overview.md', heading: 'Tools' }],
  'todo-tools.ts': [{ page: 'lousho-api-overview.md', heading: 'Todo tools' }],
  'tool-errors.ts': [
    { page: 'lousho-api-overview.md', heading: 'Tool errors' },
    { page: 'lousho-tools.md', heading: 'Errors' },
  ],
  'models-tokens-cost.ts': [{ page: 'lousho-api-overview.md', heading: 'Models, tokens and cost' }],
  'usage-and-cost.ts': [{ page: 'lousho-api-overview.md', heading: 'Usage and cost of a run' }],
  'hooks-registry.ts': [{ page: 'lousho-api-overview.md', heading: 'Flows, evals, observability and security' }],
  'hook-outcomes.ts': [{ page: 'lousho-api-overview.md', heading: 'Hook outcomes' }],
  'webhook-auth.ts': [{ page: 'lousho-api-overview.md', heading: 'Webhook authentication' }],
  'slack-signatures.ts': [{ page: 'lousho-api-overview.md', heading: 'Slack request signatures' }],
  'cron-schedules.ts': [{ page: 'lousho-api-overview.md', heading: 'Cron schedules' }],
  'define-tool.ts': [{ page: 'lousho-tools.md', heading: 'Tools' }],
  'tool-registry.ts': [{ page: 'lousho-tools.md', heading: 'ToolRegistry' }],
};

/**
 * Sections whose feature another branch is building, by issue, with the names that bring it. The
 * test asserts none of those names is exported yet: when one lands, the test fails until the
 * section gets its example (and leaves this list).
 */
export const PENDING: { heading: string; issue: number; names: string[] }[] = [
  { heading: 'Sub-agents', issue: 18, names: ['createDelegateTool'] },
  { heading: 'Skills', issue: 20, names: ['defineSkill', 'loadSkills'] },
  { heading: 'Memory', issue: 20, names: ['defineMemory', 'inMemoryMemory', 'fileMemory'] },
  { heading: 'Context compaction', issue: 20, names: ['createCompactionHook', 'twoPhaseStrategy', 'compactMessages'] },
  { heading: 'Declarative specs', issue: 20, names: ['loadSpec', 'agentSpecSchema', 'specToAgent'] },
];

/** Sections with a code block that is not a program: the shell command of the docs build. */
export const NOT_PROGRAMS: Section[] = [{ page: 'lousho-api-overview.md', heading: 'API Overview' }];
