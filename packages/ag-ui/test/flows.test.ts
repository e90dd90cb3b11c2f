import { afterEach, describe, expect, it } from 'vitest';
import { EventType, type BaseEvent } from '@ag-ui/client';
import { eventually, gate, lookupFlow, triageFlow } from '@lousho/conformance';
import { serveAgUi, type AgUiServer } from './support/server.js';
import { agUiClient, lastAssistantText, run } from './support/client.js';

// The two flow scenarios of @lousho/conformance, with @ag-ui/client's HttpAgent as the client: a
// node is an AG-UI step, the events of the agent a node runs travel whole in CUSTOM events.

let server: AgUiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const stepsOf = (events: { type: string; stepName?: string }[], type: string) => events.filter((event) => event.type === type).map((event) => event.stepName);

describe('AG-UI: flows', () => {
  it('node steps in order with their agent runs nested, an approval node interrupts, the resume runs it on', async () => {
    const hold = gate();
    const { agent } = triageFlow(hold);
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const seen: BaseEvent[] = [];
    const sending = run(client, 'I want a refund', undefined, seen);
    // The draft node's agent streams inside its node: its words arrive nested, not as the reply's text.
    await eventually(() => expect(seen).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.flow.node.event', value: expect.objectContaining({ event: expect.objectContaining({ type: 'text.delta', delta: 'We will refund' }) }) })));
    expect(lastAssistantText(client)).toBe('');
    hold.open();
    const paused = await sending;
    expect(paused.outcome).toBe('interrupt');
    expect(paused.interrupts).toEqual([expect.objectContaining({ reason: 'tool_approval', message: 'Send this reply?', metadata: expect.objectContaining({ toolName: 'review', args: 'We will refund your order.' }) })]);
    const started = stepsOf(paused.events, EventType.STEP_STARTED);
    expect(started.filter((name) => name!.startsWith('node:'))).toHaveLength(4);
    expect(paused.events).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.flow.branch', value: expect.objectContaining({ toolName: 'route', branch: 'draft' }) }));

    const resumed = await run(client, undefined, [{ interruptId: paused.interrupts[0]!.id, status: 'resolved', payload: { approved: true, note: 'looks right' } }]);
    expect(resumed.outcome).toBe('success');
    expect(stepsOf(resumed.events, EventType.STEP_FINISHED).filter((name) => name!.startsWith('node:'))).toHaveLength(2);
    expect(lastAssistantText(client)).toBe('Sent: We will refund your order.');
  });

  it('a failing node: RUN_ERROR with its code (no stack); a stop cancels the node still running and the thread goes on', async () => {
    const hold = gate();
    const { agent } = lookupFlow(hold);
    server = await serveAgUi(agent);
    const client = agUiClient(server.url);
    const failed = await run(client, 'fail');
    expect(failed.events).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.flow.node.error', value: expect.objectContaining({ toolName: 'lookup', error: expect.objectContaining({ code: 'LOUSHO_FLOW_NODE_FAILED' }) }) }));
    const error = failed.events.find((event) => event.type === EventType.RUN_ERROR) as { code?: string; message: string } | undefined;
    expect(error).toMatchObject({ code: 'LOUSHO_FLOW_NODE_FAILED', message: expect.stringContaining('the lookup service is down') });
    expect(JSON.stringify(failed.events)).not.toMatch(/\\n\s+at /);

    const seen: BaseEvent[] = [];
    const sending = run(client, 'go', undefined, seen);
    await eventually(() => expect(seen).toContainEqual(expect.objectContaining({ type: EventType.CUSTOM, name: 'lousho.flow.node.event' })));
    client.abortRun();
    await sending;
    await eventually(() => expect(agent.sessions.get(client.threadId)?.status).not.toBe('running'));
    hold.open();
  });
});
