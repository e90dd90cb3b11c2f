import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, noopTraceExporter, SDKError, withSpan, type TraceParent } from '../../src/index.js';
import { mockModel } from '@lousho/testing';
import { otelHarness } from './otel-harness.js';

describe('withSpan()', () => {
  const manager = new AsyncLocalStorageContextManager();
  beforeAll(() => void context.setGlobalContextManager(manager.enable()));
  afterAll(() => {
    manager.disable();
    context.disable();
  });

  it('runs fn in a span, nests spans under it and returns what fn returns', async () => {
    const otel = otelHarness();
    const value = await withSpan(otel.exporter, 'handle ticket', async (outer) => {
      outer.span.setAttributes({ 'ticket.id': 't-1', skipped: undefined });
      return withSpan(outer, 'lookup', () => 42);
    });
    expect(value).toBe(42);
    const outer = otel.one('handle ticket');
    expect(outer.attributes).toEqual({ 'ticket.id': 't-1' });
    expect(otel.parentOf(otel.one('lookup'))).toBe(outer);
  });

  it('a throw marks the span failed (status, error.type, exception event without a stack) and is rethrown', async () => {
    const otel = otelHarness();
    const error = new SDKError('LOUSHO_INVALID_INPUT', 'bad order id', { hint: 'fix it' });
    await expect(withSpan(otel.exporter, 'step', () => Promise.reject(error))).rejects.toBe(error);
    const span = otel.one('step');
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'bad order id' });
    expect(span.attributes['error.type']).toBe('LOUSHO_INVALID_INPUT');
    expect(span.events[0]!.attributes).toEqual({ 'exception.type': 'LOUSHO_INVALID_INPUT', 'exception.message': 'bad order id' });
    expect(span.endTime).toBeDefined();
  });

  it('without an exporter fn still runs, with a span that records nothing', async () => {
    let seen: TraceParent | undefined;
    await expect(withSpan(undefined, 'x', (t) => ((seen = t), 'ok'))).resolves.toBe('ok');
    expect(seen!.exporter).toBe(noopTraceExporter);
    expect(() => seen!.span.setAttributes({ a: 1 })).not.toThrow();
  });

  it('the span is the active OpenTelemetry span inside fn, and a tool runs with its execute_tool span active', async () => {
    const otel = otelHarness();
    await withSpan(otel.exporter, 'outer', async (outer) => {
      await new Promise((r) => setTimeout(r, 1));
      expect(trace.getActiveSpan()?.spanContext().spanId).toBe(outer.span.ref.spanId);
    });
    let activeInTool: string | undefined;
    let traceInTool: TraceParent | undefined;
    const probe = defineTool({
      name: 'probe',
      description: 'Looks at the active span',
      input: z.object({}),
      execute: async (_args, ctx) => {
        await new Promise((r) => setTimeout(r, 1));
        activeInTool = trace.getActiveSpan()?.spanContext().spanId;
        traceInTool = ctx.trace;
        await withSpan(ctx.trace, 'db query', () => undefined);
        return 'ok';
      },
    });
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'probe' }] }, 'done']), tools: [probe], traceExporter: otel.exporter });
    await agent.send('go');
    const toolSpan = otel.one('execute_tool probe');
    expect(activeInTool).toBe(toolSpan.spanContext().spanId);
    expect(traceInTool!.span.ref.spanId).toBe(toolSpan.spanContext().spanId);
    expect(otel.parentOf(otel.one('db query'))).toBe(toolSpan);
  });

  it('a run started inside an active span nests under it', async () => {
    const otel = otelHarness();
    const agent = createAgent({ name: 'a', provider: mockModel(['hi']), traceExporter: otel.exporter });
    await withSpan(otel.exporter, 'http request', async () => {
      await agent.send('go');
    });
    expect(otel.parentOf(otel.one('invoke_agent a'))).toBe(otel.one('http request'));
  });
});
