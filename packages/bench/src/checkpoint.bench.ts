/**
 * Checkpoint benchmark (issue: "Durable sessions").
 *
 * A 200-step durable run (one tool call per step, a 1 KB tool result, `sessionId` + a store), once
 * with `memoryStore()` and once with `SqliteStore` on a temporary file. The store's
 * `checkpoints.save` is timed: its time during step k is the checkpoint cost of step k (the model
 * response, then the tool result). Writes are append-only, so the cost must not grow with the
 * transcript: the median around step 200 is compared with the median around step 10 (target < 1.5).
 * The whole step (loop, events, checkpoints) is reported beside it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, defineTool, memoryStore, type AgentStore, type CheckpointStore, type GenerateOptions, type LLMProvider, type StreamChunk } from '@lousho/build-ai-agent';
import { SqliteStore } from '@lousho/build-ai-agent/sqlite';
import { z } from 'zod';
import { median, printTable } from './stats.js';

const STEPS = 200;
const RUNS = 7;
const RESULT = 'x'.repeat(1024);

function steppingProvider(stamps: number[]): LLMProvider {
  let call = 0;
  return {
    name: 'bench',
    defaultModel: 'bench-model',
    async *stream(_options: GenerateOptions): AsyncIterable<StreamChunk> {
      stamps.push(performance.now());
      call++;
      if (call < STEPS) {
        yield { type: 'text-delta', text: `step ${call}` };
        yield { type: 'tool-call', index: 0, id: `c${call}`, name: 'fetch_page', arguments: `{"n":${call}}` };
        yield { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5 } };
      } else {
        yield { type: 'text-delta', text: 'done' };
        yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 1 } };
      }
    },
  };
}

const fetchPage = defineTool({ name: 'fetch_page', description: 'Returns a page', input: z.object({ n: z.number() }), execute: async () => RESULT });

/** Wraps `save` to add its time to the current step's bucket. */
function timed(checkpoints: CheckpointStore, stamps: number[], perStep: number[]): CheckpointStore {
  const save = checkpoints.save.bind(checkpoints);
  checkpoints.save = (sessionId, write) => {
    const start = performance.now();
    const answer = save(sessionId, write);
    const step = stamps.length; // the step whose model call came last
    perStep[step] = (perStep[step] ?? 0) + (performance.now() - start);
    return answer;
  };
  return checkpoints;
}

async function oneRun(kind: 'memory' | 'sqlite'): Promise<{ checkpoint: number[]; step: number[] }> {
  const stamps: number[] = [];
  const perStep: number[] = [];
  let cleanup = () => {};
  let store: AgentStore;
  if (kind === 'memory') {
    store = memoryStore();
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'lousho-bench-'));
    const sqlite = new SqliteStore(join(dir, 'bench.db'));
    store = sqlite;
    cleanup = () => {
      sqlite.close();
      rmSync(dir, { recursive: true, force: true });
    };
  }
  timed(store.checkpoints!, stamps, perStep);
  try {
    const agent = createAgent({ provider: steppingProvider(stamps), tools: [fetchPage], store, maxSteps: STEPS + 1 });
    const result = await agent.send('go', { sessionId: 'bench' });
    if (result.steps !== STEPS || result.finishReason !== 'stop') throw new Error(`unexpected run: ${result.steps} steps, ${result.finishReason}`);
  } finally {
    cleanup();
  }
  const step: number[] = [];
  for (let i = 1; i < stamps.length; i++) step.push(stamps[i]! - stamps[i - 1]!);
  // checkpoint[k-1] = checkpoint time during step k (1-based).
  return { checkpoint: Array.from({ length: STEPS }, (_, k) => perStep[k + 1] ?? 0), step };
}

export async function runCheckpointBench(): Promise<{ memoryRatio: number; sqliteRatio: number }> {
  const rows: [string, string][] = [];
  const ratios: Record<'memory' | 'sqlite', number> = { memory: NaN, sqlite: NaN };
  for (const kind of ['memory', 'sqlite'] as const) {
    await oneRun(kind); // warm-up: JIT, prepared statements, file cache
    const early: number[] = [];
    const late: number[] = [];
    const stepEarly: number[] = [];
    const stepLate: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const { checkpoint, step } = await oneRun(kind);
      early.push(median(checkpoint.slice(5, 15))); // steps 6..15, around step 10
      late.push(median(checkpoint.slice(STEPS - 11, STEPS - 1))); // steps 190..199, around step 200
      stepEarly.push(median(step.slice(5, 15)));
      stepLate.push(median(step.slice(STEPS - 11, STEPS - 1)));
    }
    const at10 = median(early);
    const at200 = median(late);
    const ratio = at200 / at10;
    ratios[kind] = ratio;
    const label = kind === 'memory' ? 'memoryStore()' : 'SqliteStore (WAL file)';
    rows.push(
      [`${label}: checkpoint cost per step at step 10`, `${(at10 * 1000).toFixed(1)} µs`],
      [`${label}: checkpoint cost per step at step 200`, `${(at200 * 1000).toFixed(1)} µs`],
      [`${label}: ratio step 200 / step 10 (target < 1.5)`, `${ratio.toFixed(2)} ${ratio < 1.5 ? 'OK' : 'OVER TARGET'}`],
      [`${label}: whole step at step 10 / step 200`, `${(median(stepEarly) * 1000).toFixed(1)} µs / ${(median(stepLate) * 1000).toFixed(1)} µs`],
    );
  }
  printTable(`Durable runs: checkpoint cost per step (median of ${RUNS} runs of ${STEPS} steps, 1 KB tool results)`, rows);
  return { memoryRatio: ratios.memory, sqliteRatio: ratios.sqlite };
}
