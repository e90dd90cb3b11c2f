import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import * as sdk from '@lousho/build-ai-agent';
import { EXAMPLES, NOT_PROGRAMS, PENDING, type Section } from './sections.js';

// Every example runs as its own Node process, the way a user runs it (`npx tsx <file>`), with no
// API key and no LOUSHO_MODEL in its environment, and each test checks what it printed.

const dir = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(new URL('../node_modules/.bin/tsx', import.meta.url));
const reference = (page: string) => readFileSync(fileURLToPath(new URL(`../../docs/reference/${page}`, import.meta.url)), 'utf8');

/** An environment with nothing that could reach a real model. */
const offlineEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TZ: 'UTC' };

/** Runs an example; resolves with what it printed to stdout and to stderr. */
async function runBoth(file: string): Promise<{ stdout: string; stderr: string }> {
  // Sources through the workspace's export condition, so the test needs no build (`pnpm build`
  // makes the same imports resolve to dist, as they do for a user).
  return promisify(execFile)(tsx, ['--conditions=@lousho/source', file], { cwd: dir, env: offlineEnv, timeout: 60_000 });
}

/** What an example printed to stdout; anything on stderr (a warning, a stack) fails the test. */
async function run(file: string): Promise<string> {
  const { stdout, stderr } = await runBoth(file);
  expect(stderr, `${file} wrote to stderr`).toBe('');
  return stdout;
}

/** Lines printed, for assertions that name each line. */
const lines = (out: string) => out.trim().split('\n');

/** Each page's sections (headings at any level) that contain a fenced code block. */
function sectionsWithCode(page: Section['page']): Set<string> {
  const found = new Set<string>();
  let heading = '';
  let inFence = false;
  for (const line of reference(page).split('\n')) {
    if (/^\s*```/.test(line)) {
      if (!inFence) found.add(heading);
      inFence = !inFence;
    } else if (!inFence && /^#{1,6} /.test(line)) heading = line.replace(/^#+ /, '').replaceAll('`', '').trim();
  }
  return found;
}

const key = (s: Section) => `${s.page} › ${s.heading}`;

describe('the examples cover the reference pages', () => {
  it('every section with a snippet has an example (or is the docs build command), and every example runs a section with a snippet', () => {
    const withCode = new Set((['lousho-api-overview.md', 'lousho-tools.md'] as const).flatMap((page) => [...sectionsWithCode(page)].map((heading) => key({ page, heading }))));
    expect(withCode.size).toBeGreaterThan(15);
    const covered = new Set([...Object.values(EXAMPLES).flat(), ...NOT_PROGRAMS].map(key));
    expect([...withCode].filter((section) => !covered.has(section))).toEqual([]);
    expect([...covered].filter((section) => !withCode.has(section))).toEqual([]);
  });

  it('every program in examples/ is listed, and every listed one exists', () => {
    const programs = readdirSync(dir).filter((file) => file.endsWith('.ts') && file !== 'vitest.config.ts');
    expect(programs.sort()).toEqual(Object.keys(EXAMPLES).sort());
  });

  it('the README lists every example and every pending section', () => {
    const readme = readFileSync(`${dir}/README.md`, 'utf8');
    for (const file of Object.keys(EXAMPLES)) expect(readme, file).toContain(`[${file}](${file})`);
    for (const { heading, issue } of PENDING) expect(readme, heading).toMatch(new RegExp(`${heading}.*#${issue}`));
  });

  it.each(PENDING)('pending: $heading (issue $issue) is documented and its feature is not exported yet (write its example when it lands)', ({ heading, names }) => {
    expect(reference('lousho-api-overview.md')).toMatch(new RegExp(`^#+ ${heading}$`, 'm'));
    expect(names.filter((name) => name in sdk)).toEqual([]);
  });
});

describe.concurrent('each example runs offline and prints what its section promises', () => {
  it('dynamic-config.ts: model, instructions and tools follow each run', async () => {
    expect(lines(await run('dynamic-config.ts'))).toEqual([
      'admin of Globex: model=small-model tools=[refund] instructions="You are the support agent of Globex."',
      'anonymous, long input: model=large-model tools=[] instructions="You are the support agent of Acme."',
    ]);
  });

  it('cancellation.ts: a stop and a passed time limit resolve as aborted; a run within its limit stops normally', async () => {
    expect(lines(await run('cancellation.ts'))).toEqual([
      'aborted',
      'the reply was cut short: true',
      'within the limit: stop: Mock response to: "Summarize this"',
      'past the limit: aborted',
      'already aborted: aborted, 0 model calls',
    ]);
  });

  it('finish-reasons.ts: stop when the model answers, max-steps when it never does', async () => {
    expect(lines(await run('finish-reasons.ts'))).toEqual(['answers at once: stop after 1 step', 'keeps searching: Gave up after 3 steps (3 searches)']);
  });

  it('parallel-tool-calls.ts: at most 4 in flight, results in call order', async () => {
    const out = lines(await run('parallel-tool-calls.ts'));
    expect(out[0]).toBe('most in flight at once: 4');
    expect(out[1]).not.toBe('finished first: Oslo');
    expect(out.slice(2)).toEqual(['transcript order: Oslo, Paris, Rome, Lima, Cairo, Quito', 'reply: All six are at 21 °C.']);
  });

  it('define-tool-approval.ts: an outside address pauses for approval; the approved call runs', async () => {
    expect(lines(await run('define-tool-approval.ts'))).toEqual([
      'internal: {"messageId":"team@mycompany.com:Standup"}',
      'outside: awaiting-approval, waiting on {"to":"client@example.org","subject":"Invoice"}',
      'pending: send_email',
      'approved: {"messageId":"client@example.org:Invoice"}, stop: Both emails are sent.',
      'bad name: LOUSHO_INVALID_TOOL_DEFINITION',
    ]);
  });

  it('mcp-tools.ts: the convertible tools load, the other is skipped and reported, arguments are validated', async () => {
    const { stdout, stderr } = await runBoth('mcp-tools.ts');
    expect(lines(stderr)).toEqual([expect.stringMatching(/^MCP server 'my-server': tool 'broken' was skipped: /)]);
    expect(lines(stdout)).toEqual([
      'loaded: my-server__add_note, my-server__list_notes',
      'skipped: broken',
      'my-server__add_note: error (validation)',
      'my-server__add_note: {"text":"Saved note 1.","content":[{"type":"text","text":"Saved note 1."}]}',
      'my-server__list_notes: {"notes":["Buy milk"]}',
      'reply: You have one note: Buy milk.',
    ]);
  });

  it('todo-tools.ts: the plan is tracked, onChange fires, a custom store keeps the list', async () => {
    const out = await run('todo-tools.ts');
    expect(out).toMatch(/^2 todos\n2 todos\n/);
    expect(out).toContain("id: 'todo_1'");
    expect(out).toContain("{ id: 'todo_2', content: 'Update imports', status: 'completed' }");
    expect(out).not.toContain("'in_progress'");
    expect(out).toContain('saved in my store: [{"id":"todo_1","content":"Ship it","status":"pending"}]');
  });

  it('tool-errors.ts: validation, thrown and unknown-tool failures reach the model as one shape', async () => {
    const out = lines(await run('tool-errors.ts'));
    const [validation, thrown, notFound] = out.slice(0, 3).map((line) => JSON.parse(line));
    expect(validation).toMatchObject({ error: 'ToolArgumentsValidationError', toolName: 'sendEmail', kind: 'validation', issues: [{ path: 'to' }, { path: 'count' }] });
    expect(validation.message).toMatch(/^Invalid arguments for tool 'sendEmail': 2 issues \(to: .*; count: .*\)$/);
    expect(thrown).toEqual({ error: 'TypeError', toolName: 'search', message: 'query must not be empty', kind: 'execution' });
    expect(notFound).toMatchObject({ error: 'ToolNotFoundError', toolName: 'translate', kind: 'not-found' });
    expect(out.join('\n')).not.toMatch(/\bat .*\.ts:\d+/);
    expect(out[3]).toBe('the run went on: stop: Sorry, none of that worked.');
  });

  it('models-tokens-cost.ts: estimates, lookups and prices', async () => {
    const out = lines(await run('models-tokens-cost.ts'));
    const used = Number(/^estimated tokens: (\d+)$/.exec(out[0]!)![1]);
    expect(used).toBeGreaterThan(3);
    expect(out.slice(1, 3)).toEqual(['openai/gpt-4o-mini is gpt-4o-mini from openai, context window 128000', 'dated snapshot: gpt-4o-mini']);
    expect(out[3]).toBe(`cost on my-llama: $${((used * 0.2 + 500 * 0.6) / 1e6).toFixed(8)}`);
    expect(out[4]).toBe('cost on an unpriced model: undefined');
  });

  it('usage-and-cost.ts: run totals, and a price once the fine-tuned model is registered', async () => {
    expect(lines(await run('usage-and-cost.ts'))).toEqual([
      'input tokens: 1200',
      'cost known: true',
      'estimated: false',
      'gpt-4o-mini calls: 1',
      'first step model: gpt-4o-mini',
      '1,200 in / 300 out tokens · $0.00036 (1 model call)',
      'fine-tuned, unregistered: 34 in / 267 out tokens (1 model call)',
      'fine-tuned, registered: 1,200 in / 300 out tokens · $0.00072 (1 model call)',
    ]);
  });

  it('hooks-registry.ts: the registered hook rewrites the arguments before the tool runs', async () => {
    expect(lines(await run('hooks-registry.ts'))).toEqual(['hooks: redact-pii', 'the tool saved: Call [email] on Monday']);
  });

  it('hook-outcomes.ts: deny, input rewrite and result trim', async () => {
    const out = lines(await run('hook-outcomes.ts'));
    expect(out[0]).toMatch(/^shell ran: false; the model got: /);
    expect(JSON.parse(out[0]!.replace(/^.*the model got: /, ''))).toMatchObject({ kind: 'denied', reason: 'Use the workspace tools instead' });
    expect(out.slice(1)).toEqual(['search ran with: {"q":"lousho","limit":10}', 'the model got 2000 of 5000 characters']);
  });

  it('webhook-auth.ts: a signed request runs the agent, a forged or tampered one gets a bare 401', async () => {
    const { stdout, stderr } = await runBoth('webhook-auth.ts');
    expect(lines(stdout)).toEqual([
      'signed: 200 "Mock response to: \\"A new issue was opened\\""',
      'forged: 401 {"error":"Unauthorized"}',
      'tampered body: 401',
      'other auth types: configured',
    ]);
    // The reason is logged (never the secret or the signature); the response never says which check failed.
    expect(lines(stderr)).toEqual([expect.stringContaining('WebhookTriggerAdapter: refused a request (signature does not match)'), expect.stringContaining('WebhookTriggerAdapter: refused a request (signature does not match)')]);
    expect(stderr).not.toContain('example-secret');
  });

  it('slack-signatures.ts: the signed handshake is answered; unsigned and stale requests are refused', async () => {
    const { stdout, stderr } = await runBoth('slack-signatures.ts');
    expect(lines(stdout)).toEqual([
      'signed handshake: 200 {"challenge":"c-123"}',
      'unsigned: 401 {"error":"Unauthorized"}',
      'ten minutes old: 401',
      'verifySlackSignature: real true, placeholder false',
    ]);
    expect(lines(stderr)).toEqual([
      'SlackTriggerAdapter: refused a request (missing X-Slack-Request-Timestamp header)',
      // How old depends on when the request arrived: 600 s, or a second more on a slow machine.
      expect.stringMatching(/^SlackTriggerAdapter: refused a request \(timestamp outside the five-minute window \(60\d s old\)\)$/),
    ]);
  });

  it('cron-schedules.ts: the schedule is armed, fires on weekday quarter hours in Paris, and an interval runs the agent', async () => {
    expect(lines(await run('cron-schedules.ts'))).toEqual([
      'armed: next run in the future: true',
      'next: Fri 27 Mar, 17:45 Paris (2026-03-27T16:45:00.000Z)',
      'next: Mon 30 Mar, 09:00 Paris (2026-03-30T07:00:00.000Z)',
      'next: Mon 30 Mar, 09:15 Paris (2026-03-30T07:15:00.000Z)',
      'interval run: Mock response to: "Tick"',
      "invalid: Invalid cron expression '*/15 25 * * *' (hour field): 25 is out of range 0-23. Example: '9-17' (9:00 to 17:59) or '*/2'.",
    ]);
  });

  it('define-tool.ts: the tool runs with typed arguments and the model sees its JSON Schema', async () => {
    const out = lines(await run('define-tool.ts'));
    expect(out.slice(0, 2)).toEqual(['weather({"location":"Paris","units":"fahrenheit"}) -> 72 sunny', 'reply: It is 72 °F and sunny in Paris.']);
    expect(JSON.parse(out[2]!.replace('schema sent: ', ''))).toMatchObject({
      type: 'object',
      properties: { location: { type: 'string' }, units: { enum: ['celsius', 'fahrenheit'] } },
      required: ['location', 'units'],
    });
  });

  it('tool-registry.ts: a registry drives AgentExecutor; a duplicate name is refused with its code', async () => {
    const out = lines(await run('tool-registry.ts'));
    expect(out.slice(0, 2)).toEqual(['registered: current_date, lookup_order', 'lookup_order -> {"orderId":"42","status":"shipped"}; Order 42 has shipped.']);
    expect(out[2]).toMatch(/^duplicate: LOUSHO_DUPLICATE_TOOL: Two tools are named 'lookup_order'/);
  });
}, 120_000);
