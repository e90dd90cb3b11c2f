import { createAgent, defineTool, memoryStore, withSpan, type AgentStreamEvent, type RunOptions, type TraceParent } from '@lousho/core';
import { createOtelTraceExporter } from '@lousho/otel';
import { mockModel } from '@lousho/core/testing';
import { SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createFlowAgent, FlowBuilder, FlowExecutor, type FlowNodeAgent, type FlowRunOptions } from '../../src/index.js';
import { gate, memoryKind, waitUntil } from '../durable/fixtures.js';
import { collect } from '../flows/helpers.js';
import { otelHarness } from './otel-harness.js';

/** An agent named `name` on a scripted model; `calls` records the options each `send` got. */
function namedAgent(name: string, reply: string, calls: RunOptions[] = []) {
  const agent = createAgent({ name, provider: mockModel([reply], { whenExhausted: 'repeat-last' }), store: memoryStore() });
  const recorded: FlowNodeAgent = {
    name,
    sessions: agent.sessions,
    send: (input, options) => {
      calls.push({ ...options });
      return agent.send(input, options);
    },
  };
  return recorded;
}

/**
 * The flow of these tests: an agent classifies, a `oneOf` routes, a parallel node fans out to an
 * agent, a function step and a tool, a step joins. `seen` records what the step and the tool got as `ctx.trace`.
 */
function deskFlow(sends: RunOptions[] = []) {
  const seen: { step?: TraceParent | undefined; tool?: TraceParent | undefined } = {};
  const lookupOrder = defineTool({
    name: 'lookup_order',
    description: 'Finds an order',
    input: z.object({ orderId: z.number() }),
    execute: async ({ orderId }, ctx) => {
      seen.tool = ctx.trace;
      return { orderId, status: 'shipped' };
    },
  });
  const flow = FlowBuilder.create<{ message: string; order: number }>('desk')
    .agent('classify', { agent: namedAgent('classifier', 'research', sends), input: 'Classify: {{input.message}}' })
    .oneOf('route', { branches: [{ when: "classify === 'research'", then: 'research' }], otherwise: 'answer' })
    .parallel('research', {
        after: 'route',
        branches: {
          web: { agent: namedAgent('researcher', 'Otters hold hands.', sends), input: 'Look up {{input.message}}' },
          notes: {
            run: async (_vars, ctx) => {
              seen.step = ctx.trace;
              return withSpan(ctx.trace, 'write notes', () => 'noted');
            },
          },
          order: { tool: lookupOrder, args: { orderId: '{{input.order}}' } },
        },
      })
    .step('answer', () => 'a plain answer', { after: 'route' })
    .step('summary', (vars) => `${String(vars.research?.web ?? vars.answer)} (${String(vars.research?.notes ?? '')})`, { after: { any: ['research', 'answer'] } })
    .build();
  return { flow, seen };
}

const input = { message: 'Why do otters hold hands?', order: 7 };

describe('a traced flow run', () => {
  it('is an invoke_workflow span, a span per node pass, parallel branches as siblings under their node, agent runs under their node', async () => {
    const otel = otelHarness();
    const { flow, seen } = deskFlow();
    const result = await FlowExecutor.run(flow, input, { sessionId: 'desk-1', traceExporter: otel.exporter });
    expect(result.path).toEqual(['classify', 'route', 'research', 'summary']);

    const leg = otel.one('invoke_workflow desk');
    expect(leg.parentSpanContext).toBeUndefined();
    expect(leg.links).toEqual([]);
    expect(leg.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_workflow',
      'gen_ai.workflow.name': 'desk',
      'gen_ai.conversation.id': 'desk-1',
      'lousho.run.id': result.runId,
      'gen_ai.response.finish_reasons': ['stop'],
      'lousho.run.finish_reason': 'stop',
      'lousho.flow.path': ['classify', 'route', 'research', 'summary'],
      'gen_ai.usage.input_tokens': result.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.usage.outputTokens,
      'lousho.usage.model_calls': 2,
    });
    expect(leg.attributes['lousho.run.continuation']).toBeUndefined();

    // Every pass that ran has a span under the leg; the skipped `answer` has none.
    const passes = otel.spans().filter((s) => s.name.startsWith('flow_node '));
    expect(passes.map((s) => [s.name, otel.parentName(s)]).sort()).toEqual(
      [
        ['flow_node classify', 'invoke_workflow desk'],
        ['flow_node route', 'invoke_workflow desk'],
        ['flow_node research', 'invoke_workflow desk'],
        ['flow_node research/web', 'flow_node research'],
        ['flow_node research/notes', 'flow_node research'],
        ['flow_node research/order', 'flow_node research'],
        ['flow_node summary', 'invoke_workflow desk'],
      ].sort(),
    );
    for (const pass of passes) expect(pass.attributes['lousho.flow.node.status']).toBe('done');

    const classify = otel.one('flow_node classify');
    expect(classify.attributes).toMatchObject({ 'lousho.flow.node': 'classify', 'lousho.flow.node.kind': 'agent', 'lousho.flow.node.pass': 'classify', 'lousho.flow.output.size': JSON.stringify('research').length, 'lousho.usage.model_calls': 1 });
    expect(classify.attributes['gen_ai.usage.input_tokens']).toBeGreaterThan(0);
    // Outputs are not recorded unless the exporter opts in to content.
    expect(classify.attributes['lousho.flow.output']).toBeUndefined();
    expect(otel.one('flow_node route').attributes).toMatchObject({ 'lousho.flow.node.kind': 'oneOf', 'lousho.flow.chosen': 'research' });
    const research = otel.one('flow_node research');
    expect(research.attributes).toMatchObject({ 'lousho.flow.node.kind': 'parallel', 'lousho.usage.model_calls': 1 });
    expect(research.attributes['lousho.flow.output.size']).toBe(JSON.stringify(result.outputs.research).length);
    expect(otel.one('flow_node research/web').attributes).toMatchObject({ 'lousho.flow.node': 'research', 'lousho.flow.node.kind': 'agent', 'lousho.flow.branch': 'web' });
    expect(otel.one('flow_node research/order').attributes).toMatchObject({ 'lousho.flow.node.kind': 'tool', 'lousho.flow.branch': 'order' });
    // No usage attributes on a pass that made no agent call.
    expect(otel.one('flow_node summary').attributes['gen_ai.usage.input_tokens']).toBeUndefined();

    // Agent nodes' own runs nest under their pass, with their model calls under them.
    expect(otel.parentName(otel.one('invoke_agent classifier'))).toBe('flow_node classify');
    expect(otel.parentName(otel.one('invoke_agent researcher'))).toBe('flow_node research/web');
    expect(otel.named('chat mock-model').map((s) => otel.parentName(s)).sort()).toEqual(['invoke_agent classifier', 'invoke_agent researcher']);
    // A tool node's call is an execute_tool span, which the tool gets as ctx.trace; a step gets its pass's span.
    const call = otel.one('execute_tool lookup_order');
    expect(otel.parentName(call)).toBe('flow_node research/order');
    expect(call.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup_order', 'gen_ai.tool.description': 'Finds an order' });
    expect(seen.tool?.span.ref.spanId).toBe(call.spanContext().spanId);
    expect(otel.parentName(otel.one('write notes'))).toBe('flow_node research/notes');
    expect(seen.step?.span.ref.spanId).toBe(otel.one('flow_node research/notes').spanContext().spanId);
    // One trace for all of it.
    expect(new Set(otel.spans().map((s) => s.spanContext().traceId)).size).toBe(1);
  });

  it('with captureContent, each pass records its output as JSON', async () => {
    const otel = otelHarness({ captureContent: true });
    await FlowExecutor.run(deskFlow().flow, input, { traceExporter: otel.exporter });
    expect(otel.one('flow_node classify').attributes['lousho.flow.output']).toBe('"research"');
    expect(otel.one('flow_node research/order').attributes['lousho.flow.output']).toBe('{"orderId":7,"status":"shipped"}');
  });

  it('nests under a traceParent (a tool or withSpan of yours), and a served flow traces with createFlowAgent({ traceExporter })', async () => {
    const otel = otelHarness();
    await withSpan(otel.exporter, 'handle ticket', (parent) => FlowExecutor.run(deskFlow().flow, input, { traceParent: parent }));
    expect(otel.parentName(otel.one('invoke_workflow desk'))).toBe('handle ticket');

    const served = otelHarness();
    const agent = createFlowAgent(deskFlow().flow, { traceExporter: served.exporter, input: (text) => ({ message: String(text), order: 3 }) });
    const result = await agent.send('otters?', { sessionId: 'served' });
    expect(result.finishReason).toBe('stop');
    expect(served.one('invoke_workflow desk').attributes['gen_ai.conversation.id']).toBe('served');
    expect(served.named('invoke_agent researcher')).toHaveLength(1);
  });

  it('a failed node fails its span and the leg span with the error code; nodes it stopped end as aborted', async () => {
    const otel = otelHarness();
    const slowStopped = gate();
    const flow = FlowBuilder.create('breaks')
      .step('slow', (_vars, ctx) => new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => (slowStopped.open(), reject(Object.assign(new Error('stopped'), { name: 'AbortError' }))))), { after: [] })
      .step('broken', async () => {
        await new Promise((r) => setTimeout(r, 5));
        throw new Error('disk full');
      }, { after: [] })
      .build();
    const error = await FlowExecutor.run(flow, null, { traceExporter: otel.exporter }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'LOUSHO_FLOW_NODE_FAILED' });
    const leg = otel.one('invoke_workflow breaks');
    expect(leg.status).toMatchObject({ code: SpanStatusCode.ERROR });
    expect(leg.attributes['error.type']).toBe('LOUSHO_FLOW_NODE_FAILED');
    const broken = otel.one('flow_node broken');
    expect(broken.status.code).toBe(SpanStatusCode.ERROR);
    expect(broken.attributes).toMatchObject({ 'lousho.flow.node.status': 'error', 'error.type': 'LOUSHO_FLOW_NODE_FAILED' });
    expect(broken.events.map((e) => e.name)).toEqual(['exception']);
    const slow = otel.one('flow_node slow');
    expect(slow.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(slow.attributes).toMatchObject({ 'lousho.flow.node.status': 'aborted', 'lousho.aborted': true });
  });
});

describe('a traced flow that pauses or dies', () => {
  const mail = () =>
    FlowBuilder.create<{ to: string }>('mail')
      .step('draft', (vars) => `Hello ${vars.input.to}`)
      .approval('review', { title: 'Send to {{input.to}}?' })
      .step('send', (vars) => `sent: ${vars.draft}`)
      .build();

  it('pauses with its leg span ended (awaiting-approval, the approval pending); the continuation is a new leg span linked to it', async () => {
    const otel = otelHarness();
    const store = memoryStore();
    const paused = await FlowExecutor.run(mail(), { to: 'ada' }, { sessionId: 'mail-1', store, traceExporter: otel.exporter });
    expect(paused.finishReason).toBe('awaiting-approval');
    const first = otel.one('invoke_workflow mail');
    expect(first.attributes).toMatchObject({ 'lousho.run.finish_reason': 'awaiting-approval', 'lousho.approval.id': paused.approvalId });
    const waiting = otel.one('flow_node review');
    expect(waiting.attributes).toMatchObject({ 'lousho.flow.node.kind': 'approval', 'lousho.flow.node.status': 'waiting', 'lousho.approval.id': paused.approvalId, 'lousho.approval.status': 'pending' });
    // The checkpoint keeps the leg's span, so the decision may come from another process.
    expect((await store.checkpoints!.load('mail-1'))?.run?.traceSpan).toMatchObject({ traceId: first.spanContext().traceId, spanId: first.spanContext().spanId });

    const other = otelHarness();
    const done = await FlowExecutor.resolve(mail(), { approvalId: paused.approvalId!, approved: true }, { store, traceExporter: other.exporter });
    expect(done.finishReason).toBe('stop');
    const second = other.one('invoke_workflow mail');
    expect(second.links.map((l) => l.context.spanId)).toEqual([first.spanContext().spanId]);
    expect(second.attributes).toMatchObject({ 'lousho.run.continuation': true, 'lousho.run.id': paused.runId, 'lousho.run.finish_reason': 'stop', 'lousho.flow.path': ['draft', 'review', 'send'] });
    expect(other.one('flow_node review').attributes).toMatchObject({ 'lousho.flow.node.status': 'done', 'lousho.approval.id': paused.approvalId, 'lousho.approval.approved': true });
    expect(other.parentName(other.one('flow_node send'))).toBe('invoke_workflow mail');
    // What ran in the first leg is not traced again.
    expect(other.named('flow_node draft')).toEqual([]);
  });

  it('resumed after a crash, links to the leg that died (its span never ended, so never exported)', async () => {
    const otel = otelHarness();
    const { one, another } = await memoryKind.open();
    const dying = gate();
    const ran: string[] = [];
    const jobs = (hang?: Promise<void>) =>
      FlowBuilder.create('job')
        .step('fetch', () => (ran.push('fetch'), 'fetched'))
        .step('pack', async () => {
          if (hang) await hang;
          ran.push('pack');
          return 'packed';
        })
        .build();
    const lifeA = FlowExecutor.run(jobs(dying.promise), null, { sessionId: 'job-1', store: one, traceExporter: otel.exporter });
    lifeA.catch(() => {});
    await waitUntil(() => otel.named('flow_node fetch').length === 1);
    await new Promise((r) => setTimeout(r, 20));
    const deadLeg = otel.one('flow_node fetch').parentSpanContext!;
    expect((await one.checkpoints!.load('job-1'))?.run?.traceSpan).toMatchObject({ spanId: deadLeg.spanId });

    const resumed = await FlowExecutor.resume(jobs(), { sessionId: 'job-1', store: await another(), traceExporter: otel.exporter });
    expect(resumed.finishReason).toBe('stop');
    const legs = otel.named('invoke_workflow job');
    expect(legs).toHaveLength(1);
    expect(legs[0]!.links.map((l) => l.context.spanId)).toEqual([deadLeg.spanId]);
    expect(legs[0]!.attributes).toMatchObject({ 'lousho.run.continuation': true, 'lousho.run.id': resumed.runId });
    expect(otel.named('flow_node pack').map((s) => otel.parentName(s))).toEqual(['invoke_workflow job']);
    dying.open();
    await expect(lifeA).rejects.toMatchObject({ code: 'LOUSHO_SESSION_LEASE_LOST' });
  });
});

describe('tracing off, or on without an SDK', () => {
  const eventShape = (events: AgentStreamEvent[]) =>
    events.map((e) => [e.type, (e as { toolName?: string }).toolName ?? '', e.type === 'flow.node.event' ? (e.event as { type: string }).type : ''].join(' '));

  it('off: no span, nothing passed to agents or tools, nothing in the checkpoint; the run and its events are the same as traced', async () => {
    const sends: RunOptions[] = [];
    const { flow, seen } = deskFlow(sends);
    const store = memoryStore();
    const run = FlowExecutor.stream(flow, input, { sessionId: 'off', store });
    const events = await collect(run);
    const result = await run.result;
    expect(result.finishReason).toBe('stop');
    expect(sends).toHaveLength(2);
    for (const options of sends) expect(options).not.toHaveProperty('traceParent');
    expect(seen).toEqual({ step: undefined, tool: undefined });
    expect((await store.checkpoints!.load('off'))?.run).not.toHaveProperty('traceSpan');

    const otel = otelHarness();
    const traced = deskFlow();
    const tracedRun = FlowExecutor.stream(traced.flow, input, { sessionId: 'on', store, traceExporter: otel.exporter } satisfies FlowRunOptions);
    const tracedEvents = await collect(tracedRun);
    expect((await tracedRun.result).outputs).toEqual(result.outputs);
    // Concurrent branches interleave in any order: compare the events as multisets.
    expect(eventShape(tracedEvents).sort()).toEqual(eventShape(events).sort());
  });

  it('on, with no OpenTelemetry SDK registered: one span asked per leg (and per agent run), none per node', async () => {
    const names: string[] = [];
    const noSdk = trace.getTracer('no-sdk');
    const tracer: Tracer = {
      startSpan(name, options, ctx) {
        names.push(name);
        return noSdk.startSpan(name, options, ctx);
      },
      startActiveSpan: noSdk.startActiveSpan.bind(noSdk) as Tracer['startActiveSpan'],
    };
    const { flow, seen } = deskFlow();
    const store = memoryStore();
    const result = await FlowExecutor.run(flow, input, { sessionId: 'noop', store, traceExporter: createOtelTraceExporter({ tracer }) });
    expect(result.finishReason).toBe('stop');
    // (`write notes` is the step's own withSpan: asked, and a no-op too.)
    expect(names.sort()).toEqual(['invoke_agent classifier', 'invoke_agent researcher', 'invoke_workflow desk', 'write notes']);
    // Work still gets a parent to pass on (a no-op one), and no invalid span id is kept for links.
    expect(seen.step?.span.noop).toBe(true);
    expect(seen.tool?.span.noop).toBe(true);
    expect((await store.checkpoints!.load('noop'))?.run).not.toHaveProperty('traceSpan');
  });
});
