import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool } from '../../src/index.js';
import { mockModel } from '../../src/testing/index.js';
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
});
