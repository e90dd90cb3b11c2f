import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { SqliteStore } from '../../src/index.js';

// A browser tool's pending call is an approval record in the file: a server restarted on it takes
// the page's result, checks it against the tool's schema, and goes on once.

const dir = mkdtempSync(join(tmpdir(), 'lousho-browser-tool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const localTime = defineTool({
  name: 'local_time',
  description: "The user's time zone, read in the browser",
  input: z.object({}),
  outputSchema: z.object({ timeZone: z.string().min(1) }),
});

describe('a browser tool on SqliteStore', () => {
  it('survives a restart: the new process lists the call, refuses a bad result, takes a good one once', async () => {
    const path = join(dir, 'restart.db');
    const before = new SqliteStore(path);
    const first = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'local_time', id: 'lt1', args: {} }] }]), tools: [localTime], store: before });
    const paused = await first.send('What time zone am I in?', { sessionId: 'restart' });
    expect(paused.pendingApproval).toMatchObject({ kind: 'client', toolCallId: 'lt1' });
    before.close();

    const after = new SqliteStore(path);
    try {
      const second = createAgent({ provider: mockModel(['You are in Asia/Tokyo.']), tools: [localTime], store: after });
      expect(await second.approvals.list({ sessionId: 'restart' })).toEqual([expect.objectContaining({ kind: 'client', toolCallId: 'lt1', toolName: 'local_time' })]);
      await expect(second.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: '' } })).rejects.toMatchObject({ code: 'LOUSHO_INVALID_TOOL_OUTPUT' });
      expect(await after.approvals.get(paused.approvalId!)).toMatchObject({ status: 'pending' });
      const done = await second.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'Asia/Tokyo' }, toolCallId: 'lt1' });
      expect(done.text).toBe('You are in Asia/Tokyo.');
      expect(await after.approvals.get(paused.approvalId!)).toMatchObject({ status: 'resolved', decision: { approved: true, result: { timeZone: 'Asia/Tokyo' } } });
      await expect(second.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' } })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
    } finally {
      after.close();
    }
  });

  it('a result recorded by a process that died before continuing is what resume() goes on with', async () => {
    const path = join(dir, 'crash.db');
    const storeA = new SqliteStore(path);
    const paused = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 'local_time', id: 'lt1', args: {} }] }]), tools: [localTime], store: storeA }).send('tz?', { sessionId: 'crash' });
    // The page's result was recorded, then the process died.
    storeA.approvals.claim(paused.approvalId!);
    storeA.approvals.complete(paused.approvalId!, { approved: true, result: { timeZone: 'Europe/Lisbon' } });
    storeA.close();
    const storeB = new SqliteStore(path);
    try {
      const provider = mockModel(['Lisbon time.']);
      const agentB = createAgent({ provider, tools: [localTime], store: storeB });
      const done = await agentB.resume('crash');
      expect(done.text).toBe('Lisbon time.');
      expect(JSON.parse(provider.lastCall!.messages.find((m) => m.role === 'tool')!.content as string)).toEqual({ timeZone: 'Europe/Lisbon' });
    } finally {
      storeB.close();
    }
  });
});
