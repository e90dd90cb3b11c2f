/**
 * Tracing overhead (issue: "Evals, record/replay and tracing"): the loop benchmark's 1,000-step run
 * (a model that answers at once with one tool call per step, a tool that returns at once) with
 * tracing off; on through `createOtelTraceExporter()` with OpenTelemetry's no-op tracer (no SDK
 * registered: tracing wired in but switched off); and on with an SDK that records every span (into
 * a processor that drops them, so exporting costs nothing); plus tracing off a second time, whose
 * ratio to the first shows the machine's noise. Each round runs every variant once, back to back;
 * the median over rounds of each round's ratio to `off` is reported, for CPU time of the process
 * (what the loop costs) and wall-clock time. Target: the no-op tracer under 1.05.
 */
import { createAgent, defineTool, type LLMProvider, type StreamChunk, type TraceExporter } from '@lousho/build-ai-agent';
import { createOtelTraceExporter } from '@lousho/build-ai-agent/otel';
import { BasicTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

const STEPS = 1000;
const RUNS = 31;

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

interface Timing {
  cpuMs: number;
  wallMs: number;
}

async function timedRun(traceExporter: TraceExporter | undefined): Promise<Timing> {
  const agent = createAgent({ name: 'bench', provider: steppingProvider(), tools: [noop], maxSteps: STEPS + 1, ...(traceExporter ? { traceExporter } : {}) });
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await agent.send('go');
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (result.steps !== STEPS || result.finishReason !== 'stop') throw new Error(`unexpected run: ${result.steps} steps, ${result.finishReason}`);
  return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

/** Ends spans and drops them: the SDK's recording work without an exporter's. */
const dropSpans: SpanProcessor = { onStart() {}, onEnd() {}, forceFlush: async () => {}, shutdown: async () => {} };

export async function runTracingBench(): Promise<{ ratio: number }> {
  const variants: [string, TraceExporter | undefined][] = [
    ['off', undefined],
    // The same as `off`: how far two identical runs drift apart on this machine (the noise floor).
    ['control', undefined],
    ['noop', createOtelTraceExporter()],
    ['recording', createOtelTraceExporter({ tracer: new BasicTracerProvider({ spanProcessors: [dropSpans] }).getTracer('bench') })],
  ];
  const timings = new Map<string, Timing[]>(variants.map(([name]) => [name, []]));
  // Warm-up of every path: JIT and module caches.
  for (const [, exporter] of variants) await timedRun(exporter);
  for (let r = 0; r < RUNS; r++) {
    // Rotate which goes first, so drift on a shared machine hits all alike.
    for (let k = 0; k < variants.length; k++) {
      const [name, exporter] = variants[(r + k) % variants.length]!;
      timings.get(name)!.push(await timedRun(exporter));
    }
  }
  const of = (name: string) => timings.get(name)!;
  const med = (name: string, key: keyof Timing) => median(of(name).map((t) => t[key]));
  // Each round's runs ran back to back under the same load: the median of the rounds' ratios.
  const ratioOf = (name: string, key: keyof Timing) => median(of(name).map((t, r) => t[key] / of('off')[r]![key]));
  const summary = Object.fromEntries(variants.map(([name]) => [name, { cpuMedianMs: med(name, 'cpuMs'), wallMedianMs: med(name, 'wallMs') }]));
  const ratio = ratioOf('noop', 'cpuMs');
  const wallRatio = ratioOf('noop', 'wallMs');
  const recordingRatio = ratioOf('recording', 'cpuMs');
  const controlRatio = ratioOf('control', 'cpuMs');
  const perStep = (ms: number) => `${((ms / STEPS) * 1000).toFixed(1)} µs`;
  printTable(`Tracing overhead: ${STEPS}-step run, tracing off vs on (${RUNS} rounds, each variant once per round); median CPU time / wall time per step`, [
    ['tracing off', `${perStep(summary.off!.cpuMedianMs)} / ${perStep(summary.off!.wallMedianMs)}`],
    ['tracing off again (control)', `${perStep(summary.control!.cpuMedianMs)} / ${perStep(summary.control!.wallMedianMs)}`],
    ['on, no-op tracer (no SDK)', `${perStep(summary.noop!.cpuMedianMs)} / ${perStep(summary.noop!.wallMedianMs)}`],
    ['on, SDK recording every span', `${perStep(summary.recording!.cpuMedianMs)} / ${perStep(summary.recording!.wallMedianMs)}`],
    ['no-op / off, median of rounds, CPU (target < 1.05)', `${ratio.toFixed(3)} ${ratio < 1.05 ? 'OK' : 'OVER TARGET'}`],
    ['no-op / off, median of rounds, wall', wallRatio.toFixed(3)],
    ['control / off, CPU (the noise floor; 1 is ideal)', controlRatio.toFixed(3)],
    ['recording / off, CPU', recordingRatio.toFixed(3)],
  ]);
  writeResultSection('tracing', { steps: STEPS, runs: RUNS, ...summary, ratio, wallRatio, controlRatio, recordingRatio });
  return { ratio };
}

// `tsx src/tracing.bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) await runTracingBench();
