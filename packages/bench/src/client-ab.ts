/**
 * The HTTP client of two (or more) builds of `@lousho/core` side by side, in one process: the same
 * streams as the client pipeline benchmark, each build's `createHttpAgentClient` → `send()` taking
 * turns with the others and with the floor (`eventsource-parser` + `JSON.parse` over the AI SDK's
 * bytes of the same stream), round by round. For comparing a change with the code before it, which
 * `pnpm bench` (one tree, from source) cannot do in one run; between two runs this machine's speed
 * moves more than most changes save. A build is a copy of a built tree's `packages` folder (at least
 * `client/dist`, `client/node_modules` and `core/dist`, copied with `cp -a` so the client's link to
 * its core stays relative), given as its `client/dist`: the client comes from there, the encoder
 * from `core/dist` next to it. Each build reads the stream its own encoder writes, so a change of
 * the wire is measured with both of its ends.
 *
 *   npx tsx src/client-ab.ts /path/to/before/client/dist,/path/to/after/client/dist [rounds=9] [cells=a64,b64,b16K]
 *
 * Cells: a64, a16K (one reply of 100,000 text deltas), a'7, a'64 (10,000 deltas of CJK text), b7,
 * b64, b16K (20 steps × 5 tool calls); the number is the read size.
 */
import * as eventsourceParser from 'eventsource-parser';
import { check, chunked, floor, interleavedMedians, longReply, loushoClient, loushoWire, toolRun } from './client-pipelines.js';

const builds = (process.argv[2] ?? '').split(',').filter(Boolean);
if (builds.length < 2) throw new Error('Usage: client-ab.ts <dist>,<dist>[,...] [rounds] [cells]');
const rounds = Number(process.argv[3] ?? 9);
const wanted = (process.argv[4] ?? 'a64,b64,b16K').split(',');

type Create = NonNullable<Parameters<typeof loushoClient>[1]>;
type Build = { createHttpAgentClient: Create; createSseEventEncoder: Parameters<typeof loushoWire>[1]; encodeSseVersion: Parameters<typeof loushoWire>[2] };
const loaded: Build[] = await Promise.all(builds.map(async (dir) => ({ ...(await import(`${dir}/../../core/dist/index.js`)), ...(await import(`${dir}/index.js`)) }) as Build));
const creates = loaded.map((build) => build.createHttpAgentClient);

const cells: Record<string, () => { scenario: ReturnType<typeof longReply>; size: number }> = {
  a64: () => ({ scenario: longReply(100_000), size: 64 }),
  a16K: () => ({ scenario: longReply(100_000), size: 16 * 1024 }),
  "a'7": () => ({ scenario: longReply(10_000, true), size: 7 }),
  "a'64": () => ({ scenario: longReply(10_000, true), size: 64 }),
  b7: () => ({ scenario: toolRun(), size: 7 }),
  b64: () => ({ scenario: toolRun(), size: 64 }),
  b16K: () => ({ scenario: toolRun(), size: 16 * 1024 }),
};

for (const name of wanted) {
  const cell = cells[name];
  if (!cell) throw new Error(`No cell ${name}: ${Object.keys(cells).join(', ')}`);
  const { scenario, size } = cell();
  const ours = loaded.map((build) => chunked(loushoWire(scenario.events, build.createSseEventEncoder, build.encodeSseVersion), size));
  const theirs = chunked(scenario.aiSdk, size);
  // Each build's client is checked once (what it ends with), so no build can skip work.
  for (const [i, create] of creates.entries()) check(`the client of ${builds[i]}`, await loushoClient(ours[i]!, create), scenario);
  const runs = [...creates.map((create, i) => () => loushoClient(ours[i]!, create)), () => floor(theirs, eventsourceParser)];
  // In turns, each sample long enough for the timer (the client pipeline benchmark's way).
  const medians = await interleavedMedians(rounds, runs);
  const floorMs = medians.pop()!;
  const shown = builds.map((dir, i) => `${dir} (${ours[i]!.reduce((sum, chunk) => sum + chunk.length, 0).toLocaleString('en-US')} B): ${medians[i]!.toFixed(2)} ms (× first ${(medians[i]! / medians[0]!).toFixed(3)}, ÷ floor ${(medians[i]! / floorMs).toFixed(2)})`);
  console.log(`${name} (median of ${rounds} rounds): floor ${floorMs.toFixed(2)} ms | ${shown.join(' | ')}`);
}
