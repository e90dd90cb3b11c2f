/**
 * Tracing overhead (issue: "Evals, record/replay and tracing"): the loop benchmark's 1,000-step run
 * (a model that answers at once with one tool call per step, a tool that returns at once) with
 * tracing off, and with tracing on through `createOtelTraceExporter()` and OpenTelemetry's no-op
 * tracer (no SDK registered: the spans are made and dropped, as in an app that traces only some
 * requests). The two run alternately, side by side; the ratio of the median run times is reported.
 * Target: under 1.05.
 */
import { createAgent, defineTool, type LLMProvider, type StreamChunk, type TraceExporter } from '@lousho/build-ai-agent';
import { createOtelTraceExporter } from '@lousho/build-ai-agent/otel';
import { z } from 'zod';
import { writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

const STEPS = 1000;
const RUNS = 15;

function steppingProvider(): LLMProvider {
  let call = 0;
  return {
    name: 'bench',
    defaultModel: 'bench-model',
    async *stream(): AsyncIterable<StreamChunk> {
      call++;
      if (call < STEPS) {
        yield { type: 'tool-call', index: 0, id: `c${call}`, name: 'noop', arguments: `{"n":${call}}` };
        yield { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5 } };
      } else {
        yield { type: 'text-delta', text: 'done' };
        yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 1 } };
      }
    },
  };
}

const noop = defineTool({ name: 'noop', description: 'Does nothing', input: z.object({ n: z.number() }), execute: async ({ n }) => n });

async function timedRun(traceExporter: TraceExporter | undefined): Promise<number> {
  const agent = createAgent({ name: 'bench', provider: steppingProvider(), tools: [noop], maxSteps: STEPS + 1, ...(traceExporter ? { traceExporter } : {}) });
  const started = performance.now();
  const result = await agent.send('go');
  const elapsed = performance.now() - started;
  if (result.steps !== STEPS || result.finishReason !== 'stop') throw new Error(`unexpected run: ${result.steps} steps, ${result.finishReason}`);
  return elapsed;
}

export async function runTracingBench(): Promise<{ ratio: number }> {
  const exporter = createOtelTraceExporter();
  // Warm-up of both paths: JIT and module caches.
  await timedRun(undefined);
  await timedRun(exporter);
  const off: number[] = [];
  const on: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    // Alternate which goes first, so drift on a shared machine hits both alike.
    if (r % 2 === 0) {
      off.push(await timedRun(undefined));
      on.push(await timedRun(exporter));
    } else {
      on.push(await timedRun(exporter));
      off.push(await timedRun(undefined));
    }
  }
  const offMedian = median(off);
  const onMedian = median(on);
  const ratio = onMedian / offMedian;
  printTable(`Tracing overhead: ${STEPS}-step run, tracing off vs on with the no-op OpenTelemetry tracer (median of ${RUNS} runs each, alternating)`, [
    ['tracing off, per step', `${((offMedian / STEPS) * 1000).toFixed(1)} µs`],
    ['tracing on (no-op tracer), per step', `${((onMedian / STEPS) * 1000).toFixed(1)} µs`],
    ['ratio on / off (target < 1.05)', `${ratio.toFixed(3)} ${ratio < 1.05 ? 'OK' : 'OVER TARGET'}`],
  ]);
  writeResultSection('tracing', { steps: STEPS, runs: RUNS, offMedianMs: offMedian, onMedianMs: onMedian, ratio });
  return { ratio };
}

// `tsx src/tracing.bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) await runTracingBench();
