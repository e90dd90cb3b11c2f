import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, createDelegateTool, defineTool, SubagentDepthError, type AgentHook, type AgentListenerEvent, type Message } from '../../../src/index.js';
import { mockModel, type MockModelStep } from '@lousho/testing';

/** Every tool call of the transcript has exactly one result. */
function everyCallAnswered(messages: readonly Message[]): void {
  const asked = messages.flatMap((m) => m.toolCalls?.map((c) => c.id) ?? []);
  const answered = messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId);
  expect([...answered].sort()).toEqual([...asked].sort());
}

function researcherTools(ran: string[], onStart?: (signal: AbortSignal | undefined) => void) {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a topic up',
    input: z.object({ topic: z.string() }),
    execute: async ({ topic }, ctx) => {
      ran.push(ctx.toolCallId);
      if (onStart) {
        // Waits until the run is stopped (the stop comes from inside, once it is waiting).
        await new Promise((_, reject) => {
          ctx.abortSignal?.addEventListener('abort', () => reject(ctx.abortSignal!.reason), { once: true });
          onStart(ctx.abortSignal);
        });
      }
      return `${topic}: found`;
    },
  });
  const publish = defineTool({ name: 'publish', description: 'Publishes', input: z.object({ title: z.string() }), needsApproval: true, execute: async ({ title }, ctx) => (ran.push(ctx.toolCallId), `published ${title}`) });
  return [lookup, publish];
}

const research = (id: string, prompt = 'Research tea') => ({ name: 'research', id, args: { prompt } });

function team(options: { child: MockModelStep[]; lead?: MockModelStep[]; ran?: string[]; onStart?: (signal: AbortSignal | undefined) => void; hooks?: AgentHook[]; onEvent?: (e: AgentListenerEvent) => void } ) {
  const ran = options.ran ?? [];
  const childModel = mockModel(options.child, { model: 'child-model' });
  const researcher = createAgent({ name: 'researcher', description: 'Researches.', provider: childModel, tools: researcherTools(ran, options.onStart) });
  const leadModel = mockModel(options.lead ?? [{ toolCalls: [research('d1')] }, 'Lead done.'], { model: 'lead-model' });
  const agent = createAgent({
    provider: leadModel,
    tools: [createDelegateTool(researcher, { name: 'research', description: 'Research something in depth' })],
    ...(options.hooks ? { hooks: options.hooks } : {}),
    permissions: [{ tool: 'forbidden', decision: 'deny', reason: 'not here' }],
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  return { agent, childModel, leadModel, ran };
}

const ref = { name: 'researcher', depth: 1, toolCallId: 'd1' };

describe('createDelegateTool: the same inheritance as subagents', () => {
  it("hooks: the lead's hooks see ctx.subagent and their outcomes (replace a result) apply inside the child; listeners get event.subagent", async () => {
    const seen: unknown[] = [];
    const hook: AgentHook = {
      name: 'redact',
      preToolCall(ctx) {
        seen.push([ctx.toolName, ctx.subagent]);
        return ctx.toolName === 'lookup' ? { result: 'redacted by the lead' } : undefined;
      },
    };
    const listened: AgentListenerEvent[] = [];
    const { agent, childModel, ran } = team({ child: [{ toolCalls: [{ name: 'lookup', id: 'r1', args: { topic: 'tea' } }] }, 'Child answer.'], hooks: [hook], onEvent: (e) => listened.push(e) });
    const result = await agent.send('x');
    expect(result.text).toBe('Lead done.');
    expect(seen).toEqual([
      ['research', undefined],
      ['lookup', ref],
    ]);
    // The lead's hook replaced the child's call: it never ran, and the child saw the replacement.
    expect(ran).toEqual([]);
    expect(childModel.calls[1]!.messages.find((m) => m.role === 'tool')).toMatchObject({ content: 'redacted by the lead', metadata: { replacedByHook: 'redact' } });
    const childEvents = listened.filter((e) => e.subagent);
    expect(childEvents.length).toBeGreaterThan(0);
    expect(childEvents.every((e) => JSON.stringify(e.subagent) === JSON.stringify(ref))).toBe(true);
  });

  it("signal: stopping the lead stops the child's running call; the lead ends aborted, every call of both answered", async () => {
    const controller = new AbortController();
    const listened: AgentListenerEvent[] = [];
    const { agent, ran } = team({
      child: [{ toolCalls: [{ name: 'lookup', id: 'r1', args: { topic: 'tea' } }] }, 'never'],
      lead: [{ toolCalls: [research('d1')] }, 'never'],
      onStart: () => controller.abort(),
      onEvent: (e) => listened.push(e),
    });
    const result = await agent.send('x', { signal: controller.signal });
    expect(ran).toEqual(['r1']);
    expect(result.finishReason).toBe('aborted');
    everyCallAnswered(result.messages);
    expect(JSON.parse(result.messages.find((m) => m.toolCallId === 'd1')!.content as string)).toMatchObject({ kind: 'cancelled', toolName: 'research' });
    expect(listened.find((e) => e.type === 'tool-result' && e.subagent && e.toolCallId === 'r1')).toMatchObject({ result: { kind: 'cancelled' } });
    expect(listened.find((e) => e.type === 'finish' && e.subagent)).toMatchObject({ finishReason: 'aborted' });
  });

  it("approvals: the child's call pauses the lead's run naming the sub-agent; approving continues the child, then the lead, once each; usage is delegated", async () => {
    const { agent, childModel, leadModel, ran } = team({ child: [{ toolCalls: [{ name: 'publish', id: 'r1', args: { title: 'Tea' } }] }, 'Published.'] });
    const paused = await agent.send('x', { sessionId: 's' });
    expect(paused.finishReason).toBe('awaiting-approval');
    expect(paused.pendingApproval).toMatchObject({ toolCallId: 'r1', toolName: 'publish', subagent: ref });
    expect(ran).toEqual([]);
    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Lead done.');
    expect(ran).toEqual(['r1']);
    expect(childModel.calls).toHaveLength(2);
    expect(leadModel.calls).toHaveLength(2);
    expect(leadModel.calls[1]!.messages.find((m) => m.toolCallId === 'd1')).toMatchObject({ content: 'Published.' });
    expect(done.usage.delegated).toMatchObject({ runs: 1, modelCalls: 2 });
    expect(done.usage.byModel['child-model']).toMatchObject({ calls: 2 });
  });

  it("permission rules: the lead's rules apply to the child's calls", async () => {
    const forbidden = defineTool({ name: 'forbidden', description: 'f', input: z.object({}), execute: () => 'ran' });
    const childModel = mockModel([{ toolCalls: [{ name: 'forbidden', id: 'f1', args: {} }] }, 'ok']);
    const child = createAgent({ name: 'child', description: 'C.', provider: childModel, tools: [forbidden] });
    const agent = createAgent({
      provider: mockModel([{ toolCalls: [{ name: 'child', id: 'd1', args: { prompt: 'go' } }] }, 'done']),
      tools: [createDelegateTool(child)],
      permissions: [{ tool: 'forbidden', decision: 'deny', reason: 'not here' }],
    });
    await agent.send('x');
    expect(JSON.parse(childModel.calls[1]!.messages.find((m) => m.role === 'tool')!.content as string)).toMatchObject({ kind: 'denied' });
  });

  it('depth: a delegate tool inside a sub-agent is refused past maxSubagentDepth by the depth guard', async () => {
    const grandchild = createAgent({ name: 'gc', description: 'Deep.', provider: mockModel(['deep']) });
    const child = createAgent({ name: 'child', description: 'C.', provider: mockModel([{ toolCalls: [{ name: 'gc', id: 'g1', args: { prompt: 'deeper' } }] }, 'child']), tools: [createDelegateTool(grandchild)] });
    const lead = (maxSubagentDepth?: number) =>
      createAgent({ provider: mockModel([{ toolCalls: [{ name: 'child', id: 'd1', args: { prompt: 'go' } }] }, 'lead']), tools: [createDelegateTool(child)], ...(maxSubagentDepth ? { maxSubagentDepth } : {}) });
    await expect(lead().send('x')).rejects.toBeInstanceOf(SubagentDepthError);
    expect((await lead(2).send('x')).text).toBe('lead');
  });
});
