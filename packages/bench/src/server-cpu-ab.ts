/**
 * Server CPU per event, two (or more) checkouts side by side: each checkout's own load-benchmark
 * server (`src/load/server.ts`, the Lousho kind) and load client, taking turns round by round, so
 * that a noisy machine weighs on both alike. For comparing a change with the tree before it, which
 * `pnpm bench` (one tree) cannot do in one run. Each checkout needs its dependencies installed.
 *
 *   npx tsx src/server-cpu-ab.ts /path/to/before,/path/to/after [sessions=300] [rounds=4]
 */
const trees = (process.argv[2] ?? '').split(',').filter(Boolean);
if (trees.length < 2) throw new Error('Usage: server-cpu-ab.ts <checkout>,<checkout>[,...] [sessions] [rounds]');
const sessions = Number(process.argv[3] ?? 300);
const rounds = Number(process.argv[4] ?? 4);
const samples = new Map<string, number[]>(trees.map((tree) => [tree, []]));
for (let round = 0; round < rounds; round++) {
  // Every other round in reverse order: neither goes first every time.
  for (const tree of round % 2 ? [...trees].reverse() : trees) {
    const { startChild } = await import(`${tree}/packages/bench/src/load/children.ts`);
    const { runLoad } = await import(`${tree}/packages/bench/src/load/load-client.ts`);
    const server = startChild('./server.ts', ['lousho']);
    try {
      const { port } = await server.ask(undefined, 180_000);
      await runLoad({ port, wire: 'lousho', sessions: 50, deadlineMs: 60_000, label: 'warm' });
      // Steady state, as server-load.bench.ts: three full loads first, unmeasured.
      for (let w = 0; w < 3; w++) await runLoad({ port, wire: 'lousho', sessions, deadlineMs: 60_000, label: `warm${w}` });
      const before = await server.ask('cpu');
      const load = await runLoad({ port, wire: 'lousho', sessions, deadlineMs: 60_000, label: 'load' });
      const after = await server.ask('cpu');
      const perEvent = ((after.cpuMs - before.cpuMs) * 1000) / Math.max(1, load.events);
      samples.get(tree)!.push(perEvent);
      console.log(`${tree} round ${round}: ${perEvent.toFixed(2)} µs per event (${load.events} events, ${load.failed} failed, ${load.corrupt} corrupt)`);
    } finally {
      await server.stop();
    }
  }
}
for (const [tree, list] of samples) console.log(`${tree}: median ${[...list].sort((a, b) => a - b)[list.length >> 1]!.toFixed(2)} µs per event over ${list.length} rounds`);
