import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, LocalStorageCheckpointStore, StorageServiceApprovalStore } from '@lousho/build-ai-agent';
import { FileStorageService } from '@lousho/build-ai-agent/node';
import { mockModel } from '@lousho/build-ai-agent/testing';

// The reference names StorageServiceApprovalStore and LocalStorageCheckpointStore as file-backed;
// the file storage under them is FileStorageService from `/node` (docs/utilities.md, durable.md).
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function agentOn(folder: string, replies: Parameters<typeof mockModel>[0]) {
  const sent: string[] = [];
  const sendEmail = defineTool({
    name: 'send_email',
    description: 'Send an email',
    input: z.object({ to: z.string() }),
    needsApproval: true,
    execute: async ({ to }) => (sent.push(to), { sent: to }),
  });
  const storage = new FileStorageService({ dir: folder });
  const agent = createAgent({
    provider: mockModel(replies),
    tools: [sendEmail],
    store: { checkpoints: new LocalStorageCheckpointStore(storage), approvals: new StorageServiceApprovalStore(storage) },
  });
  return { agent, sent };
}

describe('file-backed approval and checkpoint stores, as the docs import them', () => {
  it('a pause written by one agent is found and approved by a new one on the same folder (a restart)', async () => {
    dir = mkdtempSync(join(tmpdir(), 'lousho-file-stores-'));
    const first = agentOn(dir, [{ toolCalls: [{ name: 'send_email', args: { to: 'a@example.org' } }] }]);
    const paused = await first.agent.session('s1').send('Email A');
    expect(paused.finishReason).toBe('awaiting-approval');

    const restarted = agentOn(dir, ['Sent.']);
    const pending = await restarted.agent.approvals.list();
    expect(pending.map((p) => p.toolName)).toEqual(['send_email']);
    const done = await restarted.agent.approvals.resolve({ id: pending[0]!.approvalId, approved: true });
    expect(done.finishReason).toBe('stop');
    expect(done.text).toBe('Sent.');
    expect(restarted.sent).toEqual(['a@example.org']);
    expect(first.sent).toEqual([]);
  });
});
