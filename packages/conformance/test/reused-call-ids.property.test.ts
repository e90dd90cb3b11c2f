import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import 'fake-indexeddb/auto';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgentClient, type AgentClient } from '@lousho/client';
import { createAgentHandler, LocalStorageCheckpointStore, memoryStore, StorageServiceApprovalStore, type AgentStore, type AgentUIState } from '@lousho/core';
import { IndexedDbStore } from '@lousho/indexeddb';
import { FileStorageService } from '@lousho/core/node-io';
import { PostgresStore } from '@lousho/postgres';
import { SqliteStore } from '@lousho/sqlite';
import { cardsByTurn, plannedAgent, plannedCards, playSession, sessionPlans, type SessionPlan } from '../src/index.js';

/**
 * Call ids that come again: a model may number its calls per response (`call_0` in every step of
 * every turn), as an OpenAI-compatible server may. Over random conversations, on both transports
 * and every store, each turn's tool cards hold that turn's own arguments and outcomes (never
 * another call's with the same id, and none goes missing), live and after a reload, which shows
 * exactly what the live page showed.
 */

const work = mkdtempSync(join(tmpdir(), 'lousho-call-ids-'));
const databaseUrl = process.env.DATABASE_URL;
// A schema of this file's own (CI's database is a throwaway cluster).
const schema = `call_ids_${randomBytes(5).toString('hex')}`;
const opened: { close(): unknown }[] = [];
let postgres: PostgresStore | undefined;
afterAll(async () => {
  for (const store of opened) await store.close();
  rmSync(work, { recursive: true, force: true });
});

let made = 0;
const stores: [string, () => Promise<AgentStore>][] = [
  ['memory', async () => memoryStore()],
  [
    'SQLite',
    async () => {
      const store = new SqliteStore(join(work, `s${made++}.db`));
      opened.push(store);
      return store;
    },
  ],
  ['IndexedDB', async () => new IndexedDbStore(`call-ids-${made++}`, { locks: null })],
  [
    'files (checkpoints and approvals)',
    async () => {
      const storage = new FileStorageService({ dir: join(work, `f${made++}`) });
      return { checkpoints: new LocalStorageCheckpointStore(storage), approvals: new StorageServiceApprovalStore(storage) };
    },
  ],
  ...(databaseUrl
    ? [
        [
          'PostgreSQL',
          async () => {
            if (!postgres) opened.push((postgres = await PostgresStore.connect({ connectionString: databaseUrl, schema })));
            return postgres;
          },
        ] as [string, () => Promise<AgentStore>],
      ]
    : []),
];

const ORIGIN = 'http://app.test';
type Transport = 'in-process' | 'http';

/** A client on `agent` over `transport`, on `sessionId` when given (a reload). */
function clientFor(agent: ReturnType<typeof plannedAgent>, transport: Transport, sessionId?: string): AgentClient {
  if (transport === 'in-process') return createAgentClient({ agent, ...(sessionId ? { sessionId } : {}) });
  const handler = createAgentHandler(agent, { basePath: '/api/agent' });
  return createAgentClient({ url: `${ORIGIN}/api/agent`, fetch: (input, init) => handler(new Request(input, init)), ...(sessionId ? { sessionId } : {}) });
}

const plain = (state: AgentUIState): unknown => JSON.parse(JSON.stringify({ ...state }));

async function check(open: () => Promise<AgentStore>, transport: Transport, plan: SessionPlan): Promise<void> {
  const agent = plannedAgent(plan, await open());
  const client = clientFor(agent, transport);
  await playSession(client, plan);
  const live = client.getSnapshot();
  const sessionId = client.sessionId!;
  client.destroy();
  expect(cardsByTurn(live)).toMatchObject(plannedCards(plan));

  const reloaded = clientFor(agent, transport, sessionId);
  await reloaded.start();
  expect(cardsByTurn(reloaded.getSnapshot())).toMatchObject(plannedCards(plan));
  expect(plain(reloaded.getSnapshot()), 'after a reload').toEqual(plain(live));
  reloaded.destroy();
}

/** Plans whose ids come again: every call of every response is `call_0`, `call_1`. */
const reusing = sessionPlans(5).map((plan): SessionPlan => ({ ...plan, ids: 'per-response' }));

describe.each(stores)('%s store: calls whose ids come again keep their own cards, live and after a reload', (_name, open) => {
  it.each(['in-process', 'http'] as const)('over %s', async (transport) => {
    await fc.assert(
      fc.asyncProperty(reusing, (plan) => check(open, transport, plan)),
      { numRuns: 12 },
    );
  }, 120_000);
});

it('a session that reuses ids in every turn and step, then reloads (a known case, whatever the generator draws)', async () => {
  const turn = (n: number) => ({
    input: `Turn ${n}`,
    steps: [
      { reasoning: [], text: ['Checking'], calls: [{ tool: 'lookup' as const }, { tool: 'flaky' as const }] },
      { reasoning: [], text: [], calls: [{ tool: 'send_email' as const, decision: { approve: n % 2 === 0, note: 'ok' } }] },
    ],
    answer: ['Done'],
    end: 'answer' as const,
  });
  const plan: SessionPlan = { ids: 'per-response', turns: [turn(1), turn(2), turn(3), turn(4)] };
  for (const transport of ['in-process', 'http'] as const) await check(async () => memoryStore(), transport, plan);
});
