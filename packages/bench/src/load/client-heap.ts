/**
 * Client peak heap on one long reply, in a process of its own started with --expose-gc:
 *   node client-heap.ts <lousho | ai-sdk> <deltas>
 * Builds the reply's bytes in the pipeline's wire format (16 KiB reads), drops everything but
 * the bytes (ArrayBuffers, outside the JS heap), collects garbage, then runs the pipeline from
 * bytes to the final state, sampling the JS heap on every read and at the end. Reports the peak
 * and what stays after a full GC with the final state still held, both above the baseline.
 */
import { getHeapStatistics } from 'node:v8';
import { aiSdkChat, chunked, longReply, loushoClient, sampleOnEveryRead } from '../client-pipelines.js';

const [pipeline = 'lousho', deltasArg = '1000000'] = process.argv.slice(2);
const deltas = Number(deltasArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Start this process with --expose-gc.');
const ai = pipeline === 'ai-sdk' ? await import('ai') : undefined;

let scenario: ReturnType<typeof longReply> | undefined = longReply(deltas);
const expected = scenario.text.length;
const chunks = chunked(pipeline === 'ai-sdk' ? scenario.aiSdk : scenario.lousho, 16 * 1024);
const wireBytes = chunks.reduce((n, c) => n + c.byteLength, 0);
scenario = undefined;
// Warm the code paths on a small reply (JIT code is not what is measured), then settle.
const warm = longReply(1000);
await (pipeline === 'ai-sdk' ? aiSdkChat(chunked(warm.aiSdk, 16 * 1024), ai) : loushoClient(chunked(warm.lousho, 16 * 1024)));
const settled = (): number => {
  for (let i = 0; i < 4; i++) gc!();
  return getHeapStatistics().used_heap_size;
};
const baseline = settled();
let peak = baseline;
const sample = (): void => {
  const used = getHeapStatistics().used_heap_size;
  if (used > peak) peak = used;
};
sampleOnEveryRead(sample);
const outcome = await (pipeline === 'ai-sdk' ? aiSdkChat(chunks, ai) : loushoClient(chunks));
sample();
sampleOnEveryRead(undefined);
if (outcome.text.length !== expected) throw new Error(`${pipeline}: ${outcome.text.length} characters where ${expected} were expected`);
const retained = settled() - baseline;
const result = { pipeline, deltas, wireBytes, peakBytes: peak - baseline, retainedBytes: retained, textChars: outcome.text.length };
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
process.on('disconnect', () => process.exit(0));
