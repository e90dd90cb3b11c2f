import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createAgent } from '@lousho/core';
import { SqliteStore } from '../../src/index.js';
import { gate, recordingWorkTool, waitUntil } from '@lousho/test-kit/durable';
import { scriptedProvider } from '@lousho/test-kit/durable';
import { otelHarness } from './otel-harness.js';

const dir = mkdtempSync(join(tmpdir(), 'lousho-trace-crash-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a run resumed after a crash', () => {
  it('links to the span of the leg that died, from the checkpoint (another process, another agent)', async () => {
    const path = join(dir, 'crash.db');
    const otel = otelHarness();
    // Life 1: call_1_1 never finishes; the process "dies" with the leg's span still open.
    const ran: string[] = [];
    const dying = gate();
    const storeA = new SqliteStore(path);
    const agentA = createAgent({
      name: 'worker',
      provider: scriptedProvider(),
      tools: [recordingWorkTool(ran, { ids: new Set(['call_1_1']), until: dying.promise })],
      store: storeA,
      maxSteps: 50,
      traceExporter: otel.exporter,
    });
    const lifeA = agentA.send('Start the job', { sessionId: 'job' });
    lifeA.catch(() => {});
    await waitUntil(() => ran.includes('call_1_0'), 5000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The dead leg's span never ended: what is known of it is its model call's parent.
    const deadLeg = otel.spans().find((s) => s.name.startsWith('chat '))!.parentSpanContext!;
    expect(storeA.checkpoints.load('job')!.run!.traceSpan).toMatchObject({ traceId: deadLeg.traceId, spanId: deadLeg.spanId });

    // Life 2: a fresh agent on the same file resumes the run.
    const storeB = new SqliteStore(path);
    const agentB = createAgent({ name: 'worker', provider: scriptedProvider(), tools: [recordingWorkTool([])], store: storeB, maxSteps: 50, traceExporter: otel.exporter });
    const resumed = await agentB.resume('job');
    expect(resumed.finishReason).toBe('stop');
    const legs = otel.named('invoke_agent worker');
    expect(legs).toHaveLength(1); // the dead leg's span was never ended, so never exported
    const leg = legs[0]!;
    expect(leg.links.map((l) => l.context.spanId)).toEqual([deadLeg.spanId]);
    expect(leg.attributes).toMatchObject({ 'lousho.run.continuation': true, 'lousho.run.id': resumed.runId });

    dying.open();
    await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
    storeA.close();
    storeB.close();
  });
});
