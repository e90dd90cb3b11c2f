import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { mockModel } from '@lousho/testing';
import { otelHarness } from './otel-harness.js';

const lookup = defineTool({ name: 'lookup', description: 'Looks a topic up', input: z.object({ topic: z.string() }), execute: async ({ topic }) => `${topic}: found` });
const publish = defineTool({ name: 'publish', description: 'Publishes the notes', input: z.object({ title: z.string() }), needsApproval: true, execute: async ({ title }) => `published ${title}` });

const task = { name: 'task', id: 't1', args: { subagent: 'researcher', prompt: 'Research tea' } };

function team(otel: ReturnType<typeof otelHarness>, child: Parameters<typeof mockModel>[0]) {
  const researcher = createAgent({ name: 'researcher', description: 'Researches a topic in depth.', provider: mockModel(child), tools: [lookup, publish] });
  return createAgent({ name: 'lead', provider: mockModel([{ toolCalls: [task] }, 'Done.']), subagents: { researcher }, traceExporter: otel.exporter });
}

describe('a sub-agent run is traced under the delegating call', () => {
  it("the child's invoke_agent span is a child of the lead's execute_tool task span; its model and tool calls are under it", async () => {
    const otel = otelHarness();
    const agent = team(otel, [{ toolCalls: [{ name: 'lookup', id: 'r1', args: { topic: 'tea' } }] }, 'Tea is a drink.']);
    expect((await agent.send('Tell me about tea')).finishReason).toBe('stop');

    const lead = otel.one('invoke_agent lead');
    const taskSpan = otel.one('execute_tool task');
    const child = otel.one('invoke_agent researcher');
    expect(otel.parentOf(taskSpan)).toBe(lead);
    expect(otel.parentOf(child)).toBe(taskSpan);
    expect(child.attributes).toMatchObject({
      'gen_ai.agent.name': 'researcher',
      'gen_ai.agent.description': 'Researches a topic in depth.',
      'gen_ai.response.finish_reasons': ['stop'],
      'lousho.run.steps': 2,
    });
    expect(otel.parentOf(otel.one('execute_tool lookup'))).toBe(child);
    const chats = otel.named('chat mock-model');
    // Two model calls of the lead, two of the child: each under its own run's span.
    expect(chats.filter((c) => otel.parentOf(c) === lead)).toHaveLength(2);
    expect(chats.filter((c) => otel.parentOf(c) === child)).toHaveLength(2);
    // One trace for the whole delegation.
    expect(new Set(otel.spans().map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it('a child paused on an approval ends its span pending; the continuation after approving is a new child span linked to it', async () => {
    const otel = otelHarness();
    const agent = team(otel, [{ toolCalls: [{ name: 'publish', id: 'r1', args: { title: 'Tea' } }] }, 'Published.']);
    const paused = await agent.send('Publish tea notes');
    expect(paused.finishReason).toBe('awaiting-approval');
    const first = otel.one('invoke_agent researcher');
    expect(first.attributes['gen_ai.response.finish_reasons']).toEqual(['awaiting-approval']);
    expect(first.attributes['lousho.approval.id']).toBe(paused.approvalId);
    expect(otel.parentOf(otel.one('execute_tool publish'))).toBe(first);

    expect((await agent.approvals.resolve({ id: paused.approvalId!, approved: true })).finishReason).toBe('stop');
    const [, second] = otel.named('invoke_agent researcher');
    expect(second!.attributes).toMatchObject({ 'lousho.run.continuation': true, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(second!.links.map((l) => l.context.spanId)).toEqual([first.spanContext().spanId]);
    // Under the continuation's own execute_tool task span.
    const tasks = otel.named('execute_tool task');
    expect(tasks).toHaveLength(2);
    expect(otel.parentOf(second!)).toBe(tasks[1]);
    expect(otel.parentOf(tasks[1]!)).toBe(otel.named('invoke_agent lead')[1]);
  });

  it('one run with parallel tools, a sub-agent with parallel tools of its own and an approval pause: every span under the right parent, the resumed legs linked to the paused ones', async () => {
    const otel = otelHarness();
    const ns = (t: [number, number]) => t[0] * 1e9 + t[1];
    const slowLookup = defineTool({
      name: 'lookup',
      description: 'Looks a topic up',
      input: z.object({ topic: z.string() }),
      execute: async ({ topic }) => (await new Promise((r) => setTimeout(r, 25)), `${topic}: found`),
    });
    const researcher = createAgent({
      name: 'researcher',
      description: 'Researches a topic in depth.',
      provider: mockModel(
        [
          // Two lookups at once, then a publish that waits for a person, then the answer.
          { toolCalls: [{ name: 'lookup', id: 'r1', args: { topic: 'tea' } }, { name: 'lookup', id: 'r2', args: { topic: 'oolong' } }], usage: { promptTokens: 40, completionTokens: 4 } },
          { toolCalls: [{ name: 'publish', id: 'r3', args: { title: 'Tea' } }], usage: { promptTokens: 60, completionTokens: 6 } },
          { text: 'Tea notes published.', usage: { promptTokens: 80, completionTokens: 8 } },
        ],
        { model: 'child-model' },
      ),
      tools: [slowLookup, publish],
      toolConcurrency: 2,
    });
    const agent = createAgent({
      name: 'lead',
      // The lead looks something up itself while the researcher works.
      provider: mockModel(
        [
          { toolCalls: [task, { name: 'lookup', id: 'l1', args: { topic: 'green tea' } }], usage: { promptTokens: 10, completionTokens: 1 } },
          { text: 'Done.', usage: { promptTokens: 20, completionTokens: 2 } },
        ],
        { model: 'lead-model' },
      ),
      tools: [slowLookup],
      subagents: { researcher },
      toolConcurrency: 2,
      traceExporter: otel.exporter,
    });

    const paused = await agent.send('Research tea and look up green tea');
    expect(paused.finishReason).toBe('awaiting-approval');
    const lead1 = otel.one('invoke_agent lead');
    const task1 = otel.one('execute_tool task');
    const child1 = otel.one('invoke_agent researcher');
    expect(lead1.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['awaiting-approval'], 'lousho.approval.id': paused.approvalId });
    expect(child1.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['awaiting-approval'], 'lousho.approval.id': paused.approvalId });
    // The lead's lookup and its task call are parallel siblings under the lead's run span.
    const lookups = otel.named('execute_tool lookup');
    const leadLookup = lookups.find((s) => s.attributes['gen_ai.tool.call.id'] === 'l1')!;
    expect(otel.parentOf(leadLookup)).toBe(lead1);
    expect(otel.parentOf(task1)).toBe(lead1);
    expect(ns(leadLookup.startTime)).toBeLessThan(ns(task1.endTime));
    expect(ns(task1.startTime)).toBeLessThan(ns(leadLookup.endTime));
    // The researcher's run is under the task call; its two lookups are parallel siblings under it.
    expect(otel.parentOf(child1)).toBe(task1);
    const [r1, r2] = ['r1', 'r2'].map((id) => lookups.find((s) => s.attributes['gen_ai.tool.call.id'] === id)!);
    expect(otel.parentOf(r1!)).toBe(child1);
    expect(otel.parentOf(r2!)).toBe(child1);
    expect(ns(r1!.startTime)).toBeLessThan(ns(r2!.endTime));
    expect(ns(r2!.startTime)).toBeLessThan(ns(r1!.endTime));
    // The call that waits: under the researcher's run, pending.
    const waiting = otel.one('execute_tool publish');
    expect(otel.parentOf(waiting)).toBe(child1);
    expect(waiting.attributes).toMatchObject({ 'lousho.approval.id': paused.approvalId, 'lousho.approval.status': 'pending' });
    // Model calls under their own run's span, with their usage.
    expect(otel.named('chat lead-model').map((c) => otel.parentOf(c))).toEqual([lead1]);
    const childChats = otel.named('chat child-model');
    expect(childChats.map((c) => otel.parentOf(c))).toEqual([child1, child1]);
    expect(childChats[0]!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 40, 'gen_ai.usage.output_tokens': 4 });
    expect(new Set(otel.spans().map((s) => s.spanContext().traceId)).size).toBe(1);

    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Done.');
    // The continuation: a new lead span linked to the paused one, a new task span under it, a new
    // researcher span under that, linked to the researcher's paused span; the decided call under it.
    const [, lead2] = otel.named('invoke_agent lead');
    const [, task2] = otel.named('execute_tool task');
    const [, child2] = otel.named('invoke_agent researcher');
    expect(lead2!.links.map((l) => l.context.spanId)).toEqual([lead1.spanContext().spanId]);
    expect(lead2!.attributes).toMatchObject({ 'lousho.run.continuation': true, 'gen_ai.response.finish_reasons': ['stop'] });
    expect(otel.parentOf(task2!)).toBe(lead2);
    expect(otel.parentOf(child2!)).toBe(task2);
    expect(child2!.links.map((l) => l.context.spanId)).toEqual([child1.spanContext().spanId]);
    const [, decided] = otel.named('execute_tool publish');
    expect(otel.parentOf(decided!)).toBe(child2);
    expect(otel.named('chat child-model').slice(2).map((c) => otel.parentOf(c))).toEqual([child2]);
    expect(otel.named('chat lead-model').slice(1).map((c) => otel.parentOf(c))).toEqual([lead2]);
    // The finished lookups did not run again.
    expect(otel.named('execute_tool lookup')).toHaveLength(3);
    // Each leg's usage, sub-agents included (counted when the sub-agent answers): the lead's own 10
    // in the paused leg; its own 20 and the researcher's 40 + 60 + 80 in the resumed one.
    expect(lead1.attributes['gen_ai.usage.input_tokens']).toBe(10);
    expect(lead2!.attributes['gen_ai.usage.input_tokens']).toBe(200);
    expect(done.usage.inputTokens).toBe(210);
  });
});
