import { trace, type Tracer } from '@opentelemetry/api';
import { AlwaysOffSampler, BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createOtelTraceExporter } from '@lousho/otel';
import { createAgent, defineTool, type TraceParent } from '../../src/index.js';
import { mockModel } from '@lousho/testing';

/** A tracer that counts the spans asked of it and hands them to `inner`. */
function counting(inner: Tracer): { tracer: Tracer; names: string[] } {
  const names: string[] = [];
  const tracer: Tracer = {
    startSpan(name, options, ctx) {
      names.push(name);
      return inner.startSpan(name, options, ctx);
    },
    startActiveSpan: inner.startActiveSpan.bind(inner) as Tracer['startActiveSpan'],
  };
  return { tracer, names };
}

function tracedRun(tracer: Tracer) {
  const seen: (TraceParent | undefined)[] = [];
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks up',
    input: z.object({ q: z.string() }),
    execute: async ({ q }, ctx) => {
      seen.push(ctx.trace);
      return `found ${q}`;
    },
  });
  const agent = createAgent({
    name: 'support',
    provider: mockModel([{ toolCalls: [{ name: 'lookup', args: { q: 'a' } }, { name: 'lookup', args: { q: 'b' } }] }, 'Done.']),
    tools: [lookup],
    traceExporter: createOtelTraceExporter({ tracer }),
  });
  return { agent, seen };
}

describe('tracing with a tracer that records nothing', () => {
  it('the API’s no-op tracer (no SDK): one span per run and none per model or tool call; tools still get ctx.trace', async () => {
    // No provider is registered in this test process: the global tracer is the API's no-op one.
    const { tracer, names } = counting(trace.getTracer('no-sdk'));
    const { agent, seen } = tracedRun(tracer);
    const result = await agent.send('help');
    expect(result.text).toBe('Done.');
    expect(names).toEqual(['invoke_agent support']);
    expect(seen).toHaveLength(2);
    for (const parent of seen) expect(parent?.span.noop).toBe(true);

    // A nested run under a no-op parent makes no spans either (its span is the no-op tracer's too).
    const child = createAgent({ name: 'child', provider: mockModel(['ok']) });
    await child.send('hi', { traceParent: seen[0]! });
    expect(names).toEqual(['invoke_agent support', 'invoke_agent child']);
  });

  it('an SDK that samples nothing still gets every span to decide on (its samplers see model and tool calls)', async () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ sampler: new AlwaysOffSampler(), spanProcessors: [new SimpleSpanProcessor(memory)] });
    const { tracer, names } = counting(provider.getTracer('unsampled'));
    const { agent, seen } = tracedRun(tracer);
    await agent.send('help');
    expect(names.sort()).toEqual(['chat mock-model', 'chat mock-model', 'execute_tool lookup', 'execute_tool lookup', 'invoke_agent support']);
    expect(memory.getFinishedSpans()).toHaveLength(0);
    for (const parent of seen) expect(parent?.span.noop).toBe(false);
  });
});
