/**
 * The server's event path without HTTP, two checkouts side by side in one process: `agent.stream()`
 * of an agent on the load benchmark's burst provider (500 deltas a turn), through `startRun` into an
 * `EventFeed`, read with `take()` as the SSE response does; CPU time per event, rounds taking turns.
 * Steadier than `server-cpu-ab.ts` (no sockets, no child processes), and blind to the HTTP layer.
 *
 *   npx tsx src/event-path-ab.ts /path/to/before,/path/to/after [sessions=200] [rounds=8]
 */
import { existsSync } from 'node:fs';

const trees = (process.argv[2] ?? '').split(',').filter(Boolean);
if (trees.length < 2) throw new Error('Usage: event-path-ab.ts <checkout>,<checkout>[,...] [sessions] [rounds]');
const sessions = Number(process.argv[3] ?? 200);
const rounds = Number(process.argv[4] ?? 8);
const checkouts = await Promise.all(
  trees.map(async (tree) => ({
    tree,
    // The event feed moved from core to @lousho/protocol: a checkout from before the move has it in core.
    feed: await import(existsSync(`${tree}/packages/protocol`) ? `${tree}/packages/protocol/src/protocol/event-feed.ts` : `${tree}/packages/core/src/protocol/event-feed.ts`),
    core: await import(`${tree}/packages/core/src/index.ts`),
    models: await import(`${tree}/packages/bench/src/load/mock-models.ts`),
  })),
);
type Checkout = (typeof checkouts)[number];

/** Runs `count` concurrent turns and reads them to the end; returns how many events were read. */
async function turns({ feed, core, models }: Checkout, count: number): Promise<number> {
  const agent = core.createAgent({ provider: models.burstProvider(500) });
  let events = 0;
  await Promise.all(
    Array.from({ length: count }, async () => {
      const reader = await feed.startRun(agent.stream('go'), new feed.EventFeed());
      for (let batch; (batch = await reader.take(undefined, { maxBytes: 32 * 1024, sizeOf: () => 40 })) !== null; ) events += batch.length;
    }),
  );
  return events;
}

for (const checkout of checkouts) await turns(checkout, 50);
const samples = new Map<string, number[]>(trees.map((tree) => [tree, []]));
for (let round = 0; round < rounds; round++) {
  for (const checkout of round % 2 ? [...checkouts].reverse() : checkouts) {
    const before = process.cpuUsage();
    const events = await turns(checkout, sessions);
    const used = process.cpuUsage(before);
    samples.get(checkout.tree)!.push((used.user + used.system) / events);
  }
}
for (const [tree, list] of samples) {
  const sorted = [...list].sort((a, b) => a - b);
  console.log(`${tree}: median ${sorted[sorted.length >> 1]!.toFixed(2)} µs per event (${sorted.map((v) => v.toFixed(1)).join(' ')})`);
}
