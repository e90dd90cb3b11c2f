import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentBuilder, AgentExecutor, createAgent, defineTool, resumeAfterApproval, InMemoryApprovalStore } from '../../src/index.js';
import { mockModel } from '@lousho/testing';
import { otelHarness } from './otel-harness.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Two tools that finish in the opposite order of the calls. */
const slow = defineTool({ name: 'slow', description: 'Takes a while', input: z.object({ q: z.string() }), execute: async ({ q }) => (await sleep(30), `slow:${q}`) });
const fast = defineTool({ name: 'fast', description: 'Answers at once', input: z.object({ q: z.string() }), execute: async ({ q }) => `fast:${q}` });

describe('agent runs as OpenTelemetry GenAI spans', () => {
  it('a run with parallel tool calls: invoke_agent → chat per model call, execute_tool per call, all children of the run span', async () => {
    const otel = otelHarness();
    const agent = createAgent({
      name: 'travel',
      description: 'Plans trips',
      provider: mockModel([
        { toolCalls: [{ name: 'slow', args: { q: 'secret-a' } }, { name: 'fast', args: { q: 'secret-b' } }], usage: { promptTokens: 100, completionTokens: 20 } },
        { text: 'Both done.', usage: { promptTokens: 150, completionTokens: 5 } },
      ]),
      tools: [slow, fast],
      traceExporter: otel.exporter,
    });
    const result = await agent.send('Plan it', { sessionId: 'sess-1' });
    expect(result.finishReason).toBe('stop');

    const run = otel.one('invoke_agent travel');
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(run.parentSpanContext).toBeUndefined();
    expect(run.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'travel',
      'gen_ai.agent.description': 'Plans trips',
      'gen_ai.conversation.id': 'sess-1',
      'gen_ai.provider.name': 'mock',
      'gen_ai.request.model': 'mock-model',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.input_tokens': 250,
      'gen_ai.usage.output_tokens': 25,
      'lousho.usage.estimated': false,
      'lousho.run.steps': 2,
      'lousho.run.id': result.runId,
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);

    const chats = otel.named('chat mock-model');
    expect(chats).toHaveLength(2);
    for (const chat of chats) {
      expect(chat.kind).toBe(SpanKind.CLIENT);
      expect(otel.parentOf(chat)).toBe(run);
    }
    expect(chats.map((c) => c.attributes['lousho.step'])).toEqual([1, 2]);
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'mock',
      'gen_ai.request.model': 'mock-model',
      'gen_ai.response.model': 'mock-model',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 100,
      'gen_ai.usage.output_tokens': 20,
      'lousho.usage.estimated': false,
      'gen_ai.request.stream': true,
    });
    expect(typeof chats[0]!.attributes['gen_ai.response.time_to_first_chunk']).toBe('number');

    const slowSpan = otel.one('execute_tool slow');
    const fastSpan = otel.one('execute_tool fast');
    // Parallel siblings: both children of the run, whatever order they finished in.
    expect(otel.parentOf(slowSpan)).toBe(run);
    expect(otel.parentOf(fastSpan)).toBe(run);
    expect(fastSpan.endTime[0] * 1e9 + fastSpan.endTime[1]).toBeLessThan(slowSpan.endTime[0] * 1e9 + slowSpan.endTime[1]);
    expect(slowSpan.attributes).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'slow',
      'gen_ai.tool.call.id': result.toolCalls.find((c) => c.toolName === 'slow')!.toolCallId,
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Takes a while',
    });

    // No prompt or tool content unless the exporter opts in.
    const everything = JSON.stringify(otel.spans().map((s) => s.attributes));
    expect(everything).not.toContain('secret-a');
    expect(everything).not.toContain('Plan it');
    expect(everything).not.toContain('Both done');
  });

  it('captureContent records prompts, replies, tool arguments and results in the conventions’ message format', async () => {
    const otel = otelHarness({ captureContent: true });
    const agent = createAgent({
      name: 'a',
      instructions: 'Be brief.',
      provider: mockModel([{ toolCalls: [{ name: 'fast', args: { q: 'x' } }] }, 'Done.']),
      tools: [fast],
      traceExporter: otel.exporter,
    });
    await agent.send('Hi');
    const [first, second] = otel.named('chat mock-model');
    expect(JSON.parse(String(first!.attributes['gen_ai.system_instructions']))).toEqual([{ type: 'text', content: 'Be brief.' }]);
    expect(JSON.parse(String(first!.attributes['gen_ai.input.messages']))).toEqual([{ role: 'user', parts: [{ type: 'text', content: 'Hi' }] }]);
    expect(JSON.parse(String(first!.attributes['gen_ai.output.messages']))).toEqual([
      { role: 'assistant', parts: [{ type: 'tool_call', id: expect.any(String), name: 'fast', arguments: { q: 'x' } }], finish_reason: 'tool_calls' },
    ]);
    expect(JSON.parse(String(second!.attributes['gen_ai.input.messages'])).at(-1)).toEqual({ role: 'tool', parts: [{ type: 'tool_call_response', id: expect.any(String), response: 'fast:x' }] });
    expect(JSON.parse(String(second!.attributes['gen_ai.output.messages']))).toEqual([{ role: 'assistant', parts: [{ type: 'text', content: 'Done.' }], finish_reason: 'stop' }]);
    const tool = otel.one('execute_tool fast');
    expect(tool.attributes['gen_ai.tool.call.arguments']).toBe('{"q":"x"}');
    expect(tool.attributes['gen_ai.tool.call.result']).toBe('fast:x');
  });

  it('usage the provider did not report is estimated, and the chat span says so', async () => {
    const otel = otelHarness();
    const agent = createAgent({ provider: mockModel([{ text: 'Hello there', usage: null }]), traceExporter: otel.exporter });
    await agent.send('Hi');
    const chat = otel.one('chat mock-model');
    expect(chat.attributes['lousho.usage.estimated']).toBe(true);
    expect(chat.attributes['gen_ai.usage.output_tokens']).toBeGreaterThan(0);
    // An agent without a name: the span is named by the operation alone.
    expect(otel.one('invoke_agent').attributes['lousho.usage.estimated']).toBe(true);
  });

  it('errors set span status: a failing tool marks its span, a failing model marks its chat span and the run', async () => {
    const otel = otelHarness();
    const broken = defineTool({ name: 'broken', description: 'Fails', input: z.object({}), execute: async () => {
      throw new Error('disk on fire');
    } });
    const agent = createAgent({
      name: 'a',
      provider: mockModel([{ toolCalls: [{ name: 'broken', args: {} }, { name: 'fast', args: { q: 1 } }] }, new Error('upstream 500')]),
      tools: [broken, fast],
      traceExporter: otel.exporter,
    });
    await expect(agent.send('go')).rejects.toThrow(/upstream 500/);
    const tool = otel.one('execute_tool broken');
    expect(tool.status).toEqual({ code: SpanStatusCode.ERROR, message: expect.stringContaining('disk on fire') });
    expect(tool.attributes['error.type']).toBe('execution');
    expect(tool.events.map((e) => e.name)).toEqual(['exception']);
    // Invalid arguments: the call fails validation and its span says so.
    expect(otel.one('execute_tool fast').attributes['error.type']).toBe('validation');
    const chats = otel.named('chat mock-model');
    expect(chats[1]!.status.code).toBe(SpanStatusCode.ERROR);
    const run = otel.one('invoke_agent a');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes['error.type']).toBe('Error');
    // Every span ended, each once.
    expect(otel.spans()).toHaveLength(5);
  });

  it('a stopped run ends its model call span as aborted, not failed', async () => {
    const otel = otelHarness();
    const controller = new AbortController();
    const agent = createAgent({ provider: mockModel([{ text: 'one two three four five six', delayMs: 20 }]), traceExporter: otel.exporter });
    const pending = agent.send('go', { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await pending;
    expect(result.finishReason).toBe('aborted');
    const chat = otel.one('chat mock-model');
    expect(chat.attributes['lousho.aborted']).toBe(true);
    expect(chat.status.code).toBe(SpanStatusCode.UNSET);
    // The stopped call cost something: its (estimated) usage is on its span.
    expect(chat.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    expect(chat.attributes['lousho.usage.estimated']).toBe(true);
    expect(otel.one('invoke_agent').attributes['gen_ai.response.finish_reasons']).toEqual(['aborted']);
  });

  it('an approval pause ends the leg; the resumed leg is a new span linked to the paused one', async () => {
    const otel = otelHarness();
    const refund = defineTool({ name: 'refund', description: 'Refunds', input: z.object({ id: z.string() }), needsApproval: true, execute: async ({ id }) => `refunded ${id}` });
    const agent = createAgent({
      name: 'support',
      provider: mockModel([{ toolCalls: [{ name: 'fast', args: { q: 'a' } }, { name: 'refund', args: { id: 'o1' } }] }, 'Refunded.']),
      tools: [fast, refund],
      traceExporter: otel.exporter,
    });
    const paused = await agent.send('refund o1');
    expect(paused.finishReason).toBe('awaiting-approval');
    const [firstLeg] = otel.named('invoke_agent support');
    expect(firstLeg!.attributes).toMatchObject({ 'gen_ai.response.finish_reasons': ['awaiting-approval'], 'lousho.approval.id': paused.approvalId });
    const pausedCall = otel.named('execute_tool refund')[0]!;
    expect(pausedCall.attributes).toMatchObject({ 'lousho.approval.id': paused.approvalId, 'lousho.approval.status': 'pending' });
    expect(otel.parentOf(pausedCall)).toBe(firstLeg);

    const done = await agent.approvals.resolve({ id: paused.approvalId!, approved: true });
    expect(done.text).toBe('Refunded.');
    const legs = otel.named('invoke_agent support');
    expect(legs).toHaveLength(2);
    const secondLeg = legs[1]!;
    expect(secondLeg.spanContext().traceId).not.toBe(firstLeg!.spanContext().traceId);
    expect(secondLeg.links.map((l) => l.context.spanId)).toEqual([firstLeg!.spanContext().spanId]);
    expect(secondLeg.attributes['lousho.run.continuation']).toBe(true);
    const resumedCall = otel.named('execute_tool refund')[1]!;
    expect(otel.parentOf(resumedCall)).toBe(secondLeg);
    expect(resumedCall.status.code).toBe(SpanStatusCode.UNSET);
    expect(otel.parentOf(otel.named('chat mock-model')[1]!)).toBe(secondLeg);
  });

  it('a sub-agent run inside a tool nests under the execute_tool span and inherits the exporter', async () => {
    const otel = otelHarness();
    // Each research run: one tool call, then an answer (two runs go on in parallel).
    const researchStep = (request: { messages: readonly { role: string }[] }) => (request.messages.at(-1)?.role === 'tool' ? 'Found it.' : { toolCalls: [{ name: 'fast', args: { q: 'deep' } }] });
    const researcher = createAgent({ name: 'researcher', provider: mockModel([researchStep], { whenExhausted: 'repeat-last' }), tools: [fast] });
    const task = defineTool({
      name: 'task',
      description: 'Delegates to a sub-agent',
      input: z.object({ prompt: z.string() }),
      execute: async ({ prompt }, ctx) => (await researcher.send(prompt, { ...(ctx.trace ? { traceParent: ctx.trace } : {}) })).text,
    });
    const lead = createAgent({
      name: 'lead',
      provider: mockModel([{ toolCalls: [{ name: 'task', args: { prompt: 'research' } }, { name: 'task', args: { prompt: 'research' } }] }, 'Summary.']),
      tools: [task],
      traceExporter: otel.exporter,
    });
    await expect(lead.send('go')).resolves.toMatchObject({ finishReason: 'stop' });
    const leadRun = otel.one('invoke_agent lead');
    const taskSpans = otel.named('execute_tool task');
    const childRuns = otel.named('invoke_agent researcher');
    expect(taskSpans).toHaveLength(2);
    expect(childRuns).toHaveLength(2);
    expect(new Set(childRuns.map((c) => otel.parentOf(c)))).toEqual(new Set(taskSpans));
    for (const child of childRuns) {
      expect(taskSpans).toContain(otel.parentOf(child));
      expect(child.spanContext().traceId).toBe(leadRun.spanContext().traceId);
    }
    const innerTools = otel.named('execute_tool fast');
    expect(innerTools).toHaveLength(2);
    for (const inner of innerTools) expect(childRuns).toContain(otel.parentOf(inner));
    for (const chat of otel.named('chat mock-model')) expect([leadRun, ...childRuns]).toContain(otel.parentOf(chat));
  });

  it('AgentExecutor.execute({ traceExporter }) and resumeAfterApproval trace the same way', async () => {
    const otel = otelHarness();
    const store = new InMemoryApprovalStore();
    const refund = defineTool({ name: 'refund', description: 'Refunds', input: z.object({ id: z.string() }), needsApproval: true, execute: async () => 'ok' });
    const agent = AgentBuilder.create('billing').setModel('gpt-4o-mini').build();
    const provider = mockModel([{ toolCalls: [{ name: 'refund', args: { id: 'o1' } }] }, 'Done.']);
    const common = { agent: { ...agent, tools: { refund } }, provider, approvalStore: store, traceExporter: otel.exporter };
    const paused = await AgentExecutor.execute({ ...common, input: 'refund' });
    expect(paused.finishReason).toBe('awaiting-approval');
    await resumeAfterApproval({ ...common, approvalId: paused.approvalId!, approved: true });
    const legs = otel.named('invoke_agent billing');
    expect(legs).toHaveLength(2);
    expect(legs[0]!.attributes['gen_ai.request.model']).toBe('gpt-4o-mini');
    expect(otel.named('chat gpt-4o-mini')).toHaveLength(2);
    expect(legs[1]!.links[0]!.context.spanId).toBe(legs[0]!.spanContext().spanId);
  });
});
