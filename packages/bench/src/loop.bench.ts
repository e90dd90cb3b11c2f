/**
 * Loop benchmark (issue: "Workspace and the agent core").
 *
 * 1. A 1,000-step run: a provider that answers every call at once with one tool call (and reports
 *    usage, so nothing is estimated), and a tool that returns at once. The time between two model
 *    calls is the loop's own per-step overhead. We compare the median around step 10 with the
 *    median around step 1,000: a cost that grows with the transcript shows up as a ratio above 1.
 * 2. A 10-call parallel batch: the maximum number of tools in flight with `toolConcurrency: 1`
 *    and with the default.
 */
import { createAgent, defineTool, type GenerateOptions, type LLMProvider, type StreamChunk } from '@lousho/build-ai-agent';
import { z } from 'zod';
import { median, printTable } from './stats.js';

const STEPS = 1000;

/** Calls the tool on every call until `steps` calls were made, then answers with text. */
function steppingProvider(steps: number, stamps: number[]): LLMProvider {
  let call = 0;
  return {
    name: 'bench',
    defaultModel: 'bench-model',
    async *stream(_options: GenerateOptions): AsyncIterable<StreamChunk> {
      stamps.push(performance.now());
      call++;
      if (call < steps) {
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

async function oneLongRun(): Promise<number[]> {
  const stamps: number[] = [];
  const agent = createAgent({ provider: steppingProvider(STEPS, stamps), tools: [noop], maxSteps: STEPS + 1 });
  const result = await agent.send('go');
  if (result.steps !== STEPS || result.finishReason !== 'stop') throw new Error(`unexpected run: ${result.steps} steps, ${result.finishReason}`);
  const durations: number[] = [];
  for (let i = 1; i < stamps.length; i++) durations.push(stamps[i]! - stamps[i - 1]!);
  return durations; // durations[k-1] = time of step k (from model call k to model call k+1)
}

async function maxInFlight(toolConcurrency: number | undefined): Promise<number> {
  let inFlight = 0;
  let max = 0;
  const slow = defineTool({
    name: 'slow',
    description: 'Waits a little',
    input: z.object({ i: z.number() }),
    execute: async ({ i }) => {
      inFlight++;
      max = Math.max(max, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight--;
      return i;
    },
  });
  let call = 0;
  const provider: LLMProvider = {
    name: 'bench',
    async *stream() {
      if (call++ === 0) {
        for (let i = 0; i < 10; i++) yield { type: 'tool-call', index: i, id: `p${i}`, name: 'slow', arguments: `{"i":${i}}` } as StreamChunk;
        yield { type: 'finish', finishReason: 'tool_calls' } as StreamChunk;
      } else {
        yield { type: 'text-delta', text: 'ok' } as StreamChunk;
        yield { type: 'finish', finishReason: 'stop' } as StreamChunk;
      }
    },
  };
  const agent = createAgent({ provider, tools: [slow], ...(toolConcurrency ? { toolConcurrency } : {}) });
  const result = await agent.send('batch');
  if (result.toolCalls.length !== 10) throw new Error('batch did not run 10 calls');
  return max;
}

export async function runLoopBench(): Promise<{ ratio: number }> {
  const RUNS = 7;
  await oneLongRun(); // warm-up: JIT and module caches
  const early: number[] = [];
  const late: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const d = await oneLongRun();
    early.push(median(d.slice(5, 15))); // steps 6..15, around step 10
    late.push(median(d.slice(STEPS - 11, STEPS - 1))); // steps 989..998, around step 1,000
  }
  const at10 = median(early);
  const at1000 = median(late);
  const ratio = at1000 / at10;
  const sequential = await maxInFlight(1);
  const parallel = await maxInFlight(undefined);
  printTable('Agent loop: per-step overhead (median of 7 runs of 1,000 steps)', [
    ['per-step overhead at step 10', `${(at10 * 1000).toFixed(1)} µs`],
    ['per-step overhead at step 1,000', `${(at1000 * 1000).toFixed(1)} µs`],
    ['ratio step 1,000 / step 10 (target < 1.5)', `${ratio.toFixed(2)} ${ratio < 1.5 ? 'OK' : 'OVER TARGET'}`],
    ['10-call batch, toolConcurrency: 1 → max in flight (target 1)', `${sequential} ${sequential === 1 ? 'OK' : 'WRONG'}`],
    ['10-call batch, default → max in flight (target 10)', `${parallel} ${parallel === 10 ? 'OK' : 'WRONG'}`],
  ]);
  return { ratio };
}
