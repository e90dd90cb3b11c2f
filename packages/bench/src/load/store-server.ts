/**
 * A server process of the PostgreSQL load run: an agent with the burst provider on a shared store,
 * behind createNodeListener() on 127.0.0.1 (a free port, sent to the parent over IPC).
 *   node store-server.ts postgres <database url> <schema> <deltas>
 *   node store-server.ts sqlite <file> <deltas>
 */
import type { RequestListener } from 'node:http';
import { createAgent, type AgentStore } from '@lousho/build-ai-agent';
import { createNodeListener } from '@lousho/build-ai-agent/node';
import { PostgresStore } from '@lousho/build-ai-agent/postgres';
import { SqliteStore } from '@lousho/build-ai-agent/sqlite';
import { burstProvider } from './mock-models.js';
import { serveToParent } from './serve-child.js';

const [kind, target, third, fourth] = process.argv.slice(2) as [string, string, string, string | undefined];
const deltas = Number(kind === 'postgres' ? fourth : third);
const store: AgentStore =
  kind === 'postgres' ? await PostgresStore.connect({ connectionString: target, schema: third, max: 20 }) : new SqliteStore(target);
const agent = createAgent({ provider: burstProvider(deltas), store });
serveToParent(createNodeListener(agent, { keepAliveMs: 0 }) as RequestListener);
