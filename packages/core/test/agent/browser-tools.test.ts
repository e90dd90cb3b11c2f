import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createAgentHandler, defineTool, memoryStore, type AgentStreamEvent, type ToolInput, type ToolOutput } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

// A tool without `execute` runs in the browser: the run pauses on each call like an approval,
// and the page's result (checked against `outputSchema`) becomes the call's result.

const timeZone = defineTool({
  name: 'time_zone',
  description: "The user's time zone, read in the browser",
  input: z.object({}),
  outputSchema: z.object({ timeZone: z.string().min(1) }),
});

const call = (id = 'tz1') => ({ toolCalls: [{ name: 'time_zone', id, args: {} }] });

describe('browser tools', () => {
  it('defineTool() without execute makes a client tool typed from its schemas, whose execute refuses to run on the server', () => {
    expectTypeOf<ToolOutput<typeof timeZone>>().toEqualTypeOf<{ timeZone: string }>();
    expectTypeOf<ToolInput<typeof timeZone>>().toEqualTypeOf<Record<string, never>>();
    expect(timeZone.approvalKind).toBe('client');
    expect(() => timeZone.execute({}, { toolCallId: 'x', messages: [] })).toThrow(expect.objectContaining({ code: 'LOUSHO_CLIENT_TOOL_ON_SERVER' }));
    expect(() => defineTool({ name: 'x', description: 'x', input: z.object({}), needsApproval: true } as never)).toThrow(/needsApproval do not apply/);
    expect(() => defineTool({ name: 'x', description: 'x', input: z.object({}), approvalKind: 'client', execute: () => 1 })).toThrow(/has no execute/);
  });

  it('pauses the run on the call; the checked result becomes the tool result the model sees', async () => {
    const provider = mockModel([call(), 'Your time zone is Europe/Paris.']);
    const agent = createAgent({ provider, tools: [timeZone] });
    const paused = await agent.send('What is my time zone?');
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ kind: 'client', toolName: 'time_zone', toolCallId: 'tz1' });
    await expect(agent.approvals.resolve({ id: paused.approvalId!, approved: true })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_KIND_MISMATCH' });
    const done = await agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'Europe/Paris' } });
    expect(done.text).toBe('Your time zone is Europe/Paris.');
    const toolMessage = provider.lastCall!.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content as string)).toEqual({ timeZone: 'Europe/Paris' });
  });

  it('a result that fails the outputSchema is refused with LOUSHO_INVALID_TOOL_OUTPUT, nothing stored changes, and the call still waits', async () => {
    const store = memoryStore();
    const agent = createAgent({ provider: mockModel([call(), 'ok']), tools: [timeZone], store });
    const paused = await agent.send('tz?', { sessionId: 's1' });
    const before = await store.approvals.get(paused.approvalId!);
    const eventsBefore = agent.sessions.eventsAfter('s1', 0).length;
    await expect(agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 42 } })).rejects.toMatchObject({
      code: 'LOUSHO_INVALID_TOOL_OUTPUT',
      message: expect.stringContaining('timeZone'),
    });
    expect(await store.approvals.get(paused.approvalId!)).toEqual(before);
    expect(agent.sessions.eventsAfter('s1', 0)).toHaveLength(eventsBefore);
    expect(await agent.approvals.list()).toHaveLength(1);
    await expect(agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' }, toolCallId: 'other' })).rejects.toMatchObject({
      code: 'LOUSHO_APPROVAL_NOT_FOUND',
    });
    const done = await agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' }, toolCallId: 'tz1' });
    expect(done.finishReason).toBe('stop');
  });

  it("an error from the page is the call's execution error; a second answer gets LOUSHO_APPROVAL_NOT_PENDING", async () => {
    const provider = mockModel([call(), 'Could not read it.']);
    const agent = createAgent({ provider, tools: [timeZone] });
    const paused = await agent.send('tz?');
    const done = await agent.approvals.submitToolResult({ id: paused.approvalId!, error: 'Intl is not available' });
    expect(done.text).toBe('Could not read it.');
    const toolMessage = provider.lastCall!.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content as string)).toMatchObject({ kind: 'execution', message: 'Intl is not available', toolName: 'time_zone' });
    await expect(agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' } })).rejects.toMatchObject({ code: 'LOUSHO_APPROVAL_NOT_PENDING' });
  });

  it('two tabs answering at once: one continues the run, the other gets LOUSHO_APPROVAL_NOT_PENDING', async () => {
    const agent = createAgent({ provider: mockModel([call(), 'done']), tools: [timeZone] });
    const paused = await agent.send('tz?');
    const answers = await Promise.allSettled([
      agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' } }),
      agent.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'Asia/Tokyo' } }),
    ]);
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(1);
    expect(answers.find((a) => a.status === 'rejected')).toMatchObject({ reason: { code: 'LOUSHO_APPROVAL_NOT_PENDING' } });
  });

  it('survives a restart: a new agent on the same store takes the pending call and its result', async () => {
    const store = memoryStore();
    const first = createAgent({ provider: mockModel([call()]), tools: [timeZone], store });
    const paused = await first.send('tz?', { sessionId: 'restart' });
    const provider = mockModel(['It is UTC.']);
    const second = createAgent({ provider, tools: [timeZone], store });
    expect(await second.approvals.list({ sessionId: 'restart' })).toEqual([expect.objectContaining({ kind: 'client', toolCallId: 'tz1' })]);
    const done = await second.approvals.submitToolResult({ id: paused.approvalId!, result: { timeZone: 'UTC' } });
    expect(done.text).toBe('It is UTC.');
  });

  it('streams approval.requested with kind client, then approval.resolved with kind client and the tool result', async () => {
    const agent = createAgent({ provider: mockModel([call(), 'ok']), tools: [timeZone] });
    const events: AgentStreamEvent[] = [];
    for await (const event of agent.stream('tz?', { sessionId: 'ev' })) events.push(event);
    const requested = events.find((e) => e.type === 'approval.requested');
    expect(requested).toMatchObject({ approval: { kind: 'client', toolName: 'time_zone' } });
    const run = await agent.approvals.submitToolResultStream({ id: (requested as { approval: { approvalId: string } }).approval.approvalId, result: { timeZone: 'UTC' } });
    const after: AgentStreamEvent[] = [];
    for await (const event of run) after.push(event);
    expect(after.find((e) => e.type === 'approval.resolved')).toMatchObject({ kind: 'client', approved: true, toolCallId: 'tz1' });
    expect(after.find((e) => e.type === 'tool.done')).toMatchObject({ toolCallId: 'tz1', result: { timeZone: 'UTC' } });
  });

  it('over HTTP: { result } continues the run; a bad result is a 422 with LOUSHO_INVALID_TOOL_OUTPUT; a second answer a 409', async () => {
    const agent = createAgent({ provider: mockModel([call(), 'ok']), tools: [timeZone] });
    const handler = createAgentHandler(agent);
    const base = 'http://local';
    const start = await handler(new Request(`${base}/sessions/h1/messages`, { method: 'POST', body: JSON.stringify({ input: 'tz?' }), headers: { 'content-type': 'application/json' } }));
    await start.text();
    const [pending] = await agent.approvals.list({ sessionId: 'h1' });
    const post = (body: unknown) =>
      handler(new Request(`${base}/sessions/h1/approvals/${pending!.approvalId}`, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }));
    const bad = await post({ result: { timeZone: '' }, toolCallId: 'tz1' });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: { code: 'LOUSHO_INVALID_TOOL_OUTPUT' } });
    const wrongKind = await post({ approved: true });
    expect(wrongKind.status).toBe(400);
    const ok = await post({ result: { timeZone: 'UTC' }, toolCallId: 'tz1' });
    expect(ok.status).toBe(200);
    await ok.text();
    const again = await post({ result: { timeZone: 'UTC' } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ error: { code: 'LOUSHO_APPROVAL_NOT_PENDING' } });
  });
});
