// One life of the crash test's worker: run (or resume) the scripted job on a SQLite file until it
// finishes or the parent kills it. argv: <db file> <log dir> <session id> <last seq the client saw>.
// It also plays the client that follows the session: the events after what the client saw (a
// reconnect with Last-Event-ID), then every event as it comes, go to events.log.
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAgent, SDKError, type AgentStreamEvent } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { scriptedProvider, workTool } from '@lousho/test-kit/durable';

const [dbPath, logDir, sessionId, seen] = process.argv.slice(2) as [string, string, string, string];
const store = new SqliteStore(dbPath, { leaseMs: 300 });
const agent = createAgent({
  provider: scriptedProvider({ delayMs: 2, streamCalls: true, onRequest: (log) => appendFileSync(join(logDir, 'models.log'), `${JSON.stringify(log)}\n`) }),
  tools: [workTool(logDir)],
  store,
  maxSteps: 50,
});
process.stdout.write('ready\n');

const codeOf = (error: unknown) => (SDKError.is(error) ? error.code : undefined);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const follow = (event: AgentStreamEvent) => appendFileSync(join(logDir, 'events.log'), `${JSON.stringify(event)}\n`);

async function main(): Promise<string> {
  const state = await agent.sessions.load(sessionId);
  agent.sessions.subscribe(sessionId, follow);
  for (const event of agent.sessions.eventsAfter(sessionId, Number(seen))) follow(event);
  for (let attempt = 0; ; attempt++) {
    try {
      // Nothing stored yet (or killed before the first checkpoint): start the job. Otherwise resume it.
      if (!state || state.messages.length === 0) return (await agent.send('Start the job', { sessionId })).finishReason;
      return (await agent.resume(sessionId)).finishReason;
    } catch (error) {
      if (codeOf(error) === 'LOUSHO_SESSION_NOT_RESUMABLE') return 'already-finished';
      // The killed process still held the lease: it runs out shortly.
      if (codeOf(error) === 'LOUSHO_SESSION_BUSY' && attempt < 50) {
        await sleep(50);
        continue;
      }
      throw error;
    }
  }
}

main().then(
  (outcome) => {
    process.stdout.write(`done ${outcome}\n`);
    store.close();
  },
  (error: unknown) => {
    process.stderr.write(`failed ${String((error as Error)?.message ?? error)}\n`);
    process.exit(2);
  },
);
