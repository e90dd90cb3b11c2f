import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import * as devalue from 'devalue';
import fc from 'fast-check';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentClient, createAgentHandler, memoryStore, type AgentStore, type AgentUIState } from '@lousho/build-ai-agent';
import { PostgresStore } from '@lousho/build-ai-agent/postgres';
import { SqliteStore } from '@lousho/build-ai-agent/sqlite';
import { cardsByTurn, plannedAgent, plannedCards, playSession, sessionPlans, type SessionPlan } from '@lousho/conformance';
import { AGENT_PATH, coding } from '$lib/server/agent';
import { SESSION_COOKIE } from '$lib/session-cookie';
import { load } from '../src/routes/+page.server';

/**
 * The reload rule, over random conversations (tool calls, approvals, rejections with notes,
 * questions, artifacts, failures, stops, several turns, call ids unique or numbered per response
 * so that they come again): each turn's tool cards hold their own calls, and the state a client builds live, the state
 * `GET /sessions/:id` returns, the state a client shows after a reload, and the state this app's
 * `load` puts into the first paint (serialized as SvelteKit serializes it) are deep-equal, whatever
 * the store.
 */

const ORIGIN = 'http://app.test';
const work = mkdtempSync(join(tmpdir(), 'lousho-reload-'));
// PostgreSQL when DATABASE_URL is set (CI sets it), in a schema of this file's own, dropped after.
const databaseUrl = process.env.DATABASE_URL;
const schema = `reload_${randomBytes(5).toString('hex')}`;
const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 4 }) : undefined;
const opened: { close(): unknown }[] = [];
let shared: PostgresStore | undefined;
afterAll(async () => {
  // The app's coding tools made a copy of the demo project (a test worker never runs exit handlers).
  await coding.dispose();
  for (const store of opened) await store.close();
  rmSync(work, { recursive: true, force: true });
  if (pool) {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  }
});

let files = 0;
const stores: [string, () => Promise<AgentStore>, number][] = [
  ['memory', async () => memoryStore(), 40],
  [
    'SQLite',
    async () => {
      const store = new SqliteStore(join(work, `s${files++}.db`));
      opened.push(store);
      return store;
    },
    20,
  ],
  ...(databaseUrl
    ? [
        [
          'PostgreSQL',
          async () => {
            // Every conversation has a session id of its own: one store (one schema) holds them all.
            if (!shared) opened.push((shared = await PostgresStore.connect({ pool: pool!, schema })));
            return shared;
          },
          8,
        ] as [string, () => Promise<AgentStore>, number],
      ]
    : []),
];

/** What the page's `load` returns for a visitor whose cookie names `sessionId`, through SvelteKit's serialization. */
async function firstPaint(handler: (request: Request) => Promise<Response>, sessionId: string): Promise<AgentUIState | undefined> {
  const event = {
    url: new URL(`${ORIGIN}/`),
    cookies: { get: (name: string) => (name === SESSION_COOKIE ? sessionId : undefined), delete: () => {} },
    fetch: (path: string, init?: RequestInit) => handler(new Request(new URL(path, ORIGIN), init)),
  };
  const data = (await load(event as never)) as { session: { state?: AgentUIState } | null };
  return devalue.parse(devalue.stringify(data)).session?.state;
}

async function check(open: () => Promise<AgentStore>, plan: SessionPlan): Promise<void> {
  const agent = plannedAgent(plan, await open());
  const handler = createAgentHandler(agent, { basePath: AGENT_PATH });
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => handler(new Request(input, init));
  const url = `${ORIGIN}${AGENT_PATH}`;
  const client = createAgentClient({ url, fetch });
  await playSession(client, plan);
  const live = client.getSnapshot();
  const sessionId = client.sessionId!;
  client.destroy();
  expect(cardsByTurn(live), 'the cards of each turn').toMatchObject(plannedCards(plan));

  const read = (await (await handler(new Request(`${url}/sessions/${sessionId}`))).json()) as { state: AgentUIState };
  const reloaded = createAgentClient({ url, fetch, sessionId });
  await reloaded.start();
  const plain = (state: unknown) => JSON.parse(JSON.stringify(state)) as unknown;
  expect(plain(read.state), 'GET /sessions/:id').toEqual(plain(live));
  expect(plain(reloaded.getSnapshot()), 'a client after a reload').toEqual(plain(live));
  expect(plain(await firstPaint(handler, sessionId)), 'the SvelteKit first paint').toEqual(plain(live));
  reloaded.destroy();
}

describe.each(stores)('%s store: live, read back, reloaded and first paint are the same state', (_name, open, runs) => {
  it('over random conversations', async () => {
    await fc.assert(
      fc.asyncProperty(sessionPlans(), (plan) => check(open, plan)),
      { numRuns: runs },
    );
  });
});

it('a conversation with every kind of turn keeps, after a reload, what the transcript alone would lose', async () => {
  const plan: SessionPlan = {
    turns: [
      { input: 'Turn 1', steps: [{ reasoning: ['Think'], text: ['Checking'], calls: [{ tool: 'lookup' }, { tool: 'flaky' }] }], answer: ['Done'], end: 'answer' },
      { input: 'Turn 2', steps: [{ reasoning: [], text: [], calls: [{ tool: 'send_email', decision: { approve: false, note: 'not to externals' } }] }], answer: ['OK'], end: 'answer' },
      { input: 'Turn 3', steps: [{ reasoning: [], text: [], calls: [{ tool: 'ask_question', decision: { answer: 'Paris' } }] }], answer: ['Paris it is'], end: 'answer' },
      { input: 'Turn 4', steps: [], answer: [], end: 'fail' },
      { input: 'Turn 5', steps: [], answer: [], end: 'stop' },
    ],
  };
  const agent = plannedAgent(plan);
  const handler = createAgentHandler(agent, { basePath: AGENT_PATH });
  const client = createAgentClient({ url: `${ORIGIN}${AGENT_PATH}`, fetch: (input, init) => handler(new Request(input, init)) });
  await playSession(client, plan);
  const state = await firstPaint(handler, client.sessionId!);
  const parts = state!.messages.flatMap((message) => message.parts);
  expect(parts).toContainEqual({ type: 'reasoning', text: 'Think' });
  expect(parts).toContainEqual(expect.objectContaining({ toolName: 'lookup', displayName: 'Look up', progress: { searching: 'q0.0.0' }, artifacts: [expect.objectContaining({ title: 'Source' })] }));
  expect(parts).toContainEqual(expect.objectContaining({ toolName: 'flaky', displayName: 'Flaky service', state: 'error' }));
  expect(parts).toContainEqual(expect.objectContaining({ toolName: 'send_email', state: 'rejected', approval: expect.objectContaining({ approved: false, note: 'not to externals' }) }));
  expect(parts).toContainEqual(expect.objectContaining({ toolName: 'ask_question', state: 'done', approval: expect.objectContaining({ question: 'Which one? q2.0.0', answer: 'Paris' }) }));
  expect(state).toMatchObject({ status: 'aborted', finishReason: 'aborted' });
  client.destroy();
});
