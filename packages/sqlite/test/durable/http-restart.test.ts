import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import { createAgent } from '@lousho/core';
import { createAgentHandler } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { mockModel } from '@lousho/core/testing';
import { coveredSeqs, emailCall, emailTool, errorOf, json, plain, readSse, reduceAll, serve, lastStepText, type TestServer } from '@lousho/test-kit/http';

const dir = mkdtempSync(join(tmpdir(), 'lousho-http-restart-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** One "server process": a store on the file, an agent, and the handler, with `x-user` as the principal. */
async function boot(path: string, script: Parameters<typeof mockModel>[0]) {
  const store = new SqliteStore(path);
  const { tool, sent } = emailTool();
  const agent = createAgent({ provider: mockModel(script), tools: [tool], store });
  const started = await serve(createAgentHandler(agent, { authorize: (request) => request.headers.get('x-user') }));
  return { store, sent, url: started.url, server: started };
}

it('after a server restart on the same SQLite file: transcript, pending approval, ownership and the event log are back; the approval completes the run', async () => {
  const path = join(dir, 'server.db');
  const first = await boot(path, [{ text: 'Sending it.', toolCalls: [emailCall('bob@example.com')] }]);
  server = first.server;
  const alice = { 'x-user': 'alice' };
  const created = (await (await fetch(`${first.url}/sessions`, { method: 'POST', headers: alice })).json()) as { sessionId: string };
  const turn = await readSse(await fetch(`${first.url}/sessions/${created.sessionId}/messages`, json({ input: 'Email Bob' }, alice)));
  expect(turn.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'awaiting-approval' });
  const before = (await (await fetch(`${first.url}/sessions/${created.sessionId}`, { headers: alice })).json()) as Record<string, unknown>;
  await first.server.close();
  first.store.close();

  // The new process knows nothing but the file.
  const second = await boot(path, ['Sent.']);
  server = second.server;
  const read = await fetch(`${second.url}/sessions/${created.sessionId}`, { headers: alice });
  expect(read.status).toBe(200);
  const after = (await read.json()) as { status: string; pendingApproval: { approvalId: string }; state: unknown; lastSeq: number };
  expect(after).toEqual(before);
  expect(after.status).toBe('awaiting-approval');
  expect(after.state).toEqual(plain(reduceAll(turn.events)));
  // Still alice's: another principal sees nothing, and cannot claim the id by sending to it.
  expect(await errorOf(await fetch(`${second.url}/sessions/${created.sessionId}`, { headers: { 'x-user': 'mallory' } }))).toMatchObject({ status: 404 });
  expect(await errorOf(await fetch(`${second.url}/sessions/${created.sessionId}/messages`, json({ input: 'hi' }, { 'x-user': 'mallory' })))).toMatchObject({
    status: 404,
  });
  // A reconnecting stream replays the latest run from the file.
  const replay = await readSse(await fetch(`${second.url}/sessions/${created.sessionId}/events`, { headers: { ...alice, 'last-event-id': '2' } }));
  // (The ended leg's deltas come merged: the same seqs, the same state.)
  expect(coveredSeqs(replay.events)).toEqual(coveredSeqs(turn.events).slice(2));
  expect(plain(reduceAll(replay.events, reduceAll(turn.events.slice(0, 2))))).toEqual(plain(reduceAll(turn.events)));

  const decided = await readSse(
    await fetch(`${second.url}/sessions/${created.sessionId}/approvals/${after.pendingApproval.approvalId}`, json({ approved: true }, alice)),
  );
  expect(decided.events[0]).toMatchObject({ type: 'run.start', continuation: true, seq: after.lastSeq + 1 });
  expect(decided.events.at(-1)).toMatchObject({ type: 'run.done', finishReason: 'stop' });
  expect(lastStepText(decided.events)).toBe('Sent.');
  expect(second.sent).toEqual(['bob@example.com']);
  expect(first.sent).toEqual([]);
  const final = (await (await fetch(`${second.url}/sessions/${created.sessionId}`, { headers: alice })).json()) as { status: string; messages: unknown[] };
  expect(final.status).toBe('idle');
  expect(final.messages).toHaveLength(4);
  second.store.close();
});
