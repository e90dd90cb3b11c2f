/**
 * Memory per idle session, in its own process started with --expose-gc:
 *   node --expose-gc idle-memory.ts <sessions> <deltas> [turns]
 * Runs `turns` turns (default one) per session through the HTTP handler (in process: the same code path as the
 * server, minus the sockets), keeps the sessions, collects garbage and reports the heap growth
 * per session to the parent over IPC. Sessions are created after a warm-up and a baseline GC, so
 * code, JIT and module caches are not counted.
 */
import { createAgentHandler } from '@lousho/build-ai-agent';
import { createDemoAgent } from '@lousho/demo-agent';
import { burstProvider } from './mock-models.js';

const count = Number(process.argv[2] ?? 1000);
const deltas = Number(process.argv[3] ?? 500);
const turns = Number(process.argv[4] ?? 1);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Start this process with --expose-gc.');

const agent = createDemoAgent({ provider: burstProvider(deltas), toolDelayScale: 0 });
const handler = createAgentHandler(agent, { keepAliveMs: 0 });

async function turn(sessionId: string): Promise<void> {
  const response = await handler(
    new Request(`http://127.0.0.1/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ input: 'Write the benchmark reply.' }),
    }),
  );
  const text = await response.text();
  if (!text.includes('run.done')) throw new Error(`session ${sessionId}: the turn did not finish`);
}

function settledHeap(): number {
  for (let i = 0; i < 4; i++) gc!();
  return process.memoryUsage().heapUsed;
}

// Warm-up in sessions of their own (they stay, and are part of the baseline).
for (let i = 0; i < 50; i++) await turn(`warm_${i}`);
await new Promise((r) => setTimeout(r, 50));
const before = settledHeap();
for (let i = 0; i < count; i++) for (let t = 0; t < turns; t++) await turn(`idle_${i}`);
await new Promise((r) => setTimeout(r, 50));
const after = settledHeap();
// Keep the agent reachable until after the measurement.
const stored = agent.sessions.eventsAfter(`idle_${count - 1}`, 0).length;
const result = { bytesPerSession: (after - before) / count, eventsPerSession: stored };
// Alone (no parent to tell): print it.
if (process.send) process.send(result);
else console.log(JSON.stringify(result));
process.on('disconnect', () => process.exit(0));
