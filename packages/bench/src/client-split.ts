/**
 * Where the HTTP client's time goes on the tool run, (b), against the floor: each layer of
 * `createHttpAgentClient` alone, side by side in one run, so a change can be aimed at the layer
 * that costs the most. Per read size, medians of `rounds` interleaved samples of:
 *   - the floor: `eventsource-parser` + `JSON.parse` of every event, over the AI SDK's bytes;
 *   - the same floor over Lousho's bytes (what parsing every event of our stream costs);
 *   - the HTTP transport alone: response, SSE lines, delta merging, the protocol's checks and
 *     `JSON.parse` of the events parsed whole, events handed to a callback that drops them;
 *   - the transport and the entry reducer (`reduceEvent`), one state per event;
 *   - the whole client (`send()`, then the final state), as `client-pipeline.bench.ts` times it.
 * Each is printed with its ratio to the floor. It reads a build of `@lousho/core` (a `dist`
 * folder, this tree's by default) and of `@lousho/client` next to it (`<dist>/../../client/dist`),
 * since the transport and the entry reducer are internal.
 *
 *   npx tsx src/client-split.ts [dist=../core/dist] [sizes=16384,64] [rounds=15]
 */
import * as eventsourceParser from 'eventsource-parser';
import { resolve } from 'node:path';
import { bodyOf, chunked, floor, interleavedMedians, loushoClient, loushoWire, toolRun } from './client-pipelines.js';

const dist = resolve(process.argv[2] ?? new URL('../../core/dist', import.meta.url).pathname);
const sizes = (process.argv[3] ?? '16384,64').split(',').map(Number);
const rounds = Number(process.argv[4] ?? 15);

const clientDist = resolve(dist, '../../client/dist');
const { createHttpTransport } = await import(`${clientDist}/http-transport.js`);
const { reduceEvent } = await import(`${dist}/ui-state/reduce.js`);
const { createHttpAgentClient } = await import(`${clientDist}/index.js`);
const { createSseEventEncoder, encodeSseVersion } = await import(`${dist}/index.js`);

const scenario = toolRun();
const wire = loushoWire(scenario.events, createSseEventEncoder, encodeSseVersion);

for (const size of sizes) {
  const ours = chunked(wire, size);
  const theirs = chunked(scenario.aiSdk, size);
  const fetch = async (): Promise<Response> => new Response(bodyOf(ours), { headers: { 'content-type': 'text/event-stream' } });
  /** The transport's stream of a turn, read with deltas merged as the client reads them; `reduce` applies each event. */
  const transport = (reduce: boolean) => async (): Promise<void> => {
    const read = await createHttpTransport({ url: 'http://bench.invalid/api', fetch }).send('s1', 'go', undefined, new AbortController().signal);
    let state: unknown;
    await read(reduce ? (event: unknown) => void (state = reduceEvent(state, event)) : () => {}, true);
  };
  const layers: [string, () => Promise<unknown>][] = [
    ["floor, AI SDK's bytes", () => floor(theirs, eventsourceParser)],
    ["floor, Lousho's bytes", () => floor(ours, eventsourceParser)],
    ['HTTP transport', transport(false)],
    ['HTTP transport + entry reducer', transport(true)],
    ['whole client', () => loushoClient(ours, createHttpAgentClient)],
  ];
  const medians = await interleavedMedians(rounds, layers.map(([, run]) => run));
  console.log(`${scenario.name}, ${size >= 1024 ? `${size / 1024} KiB` : `${size}-byte`} reads (median of ${rounds} rounds):`);
  for (const [i, [name]] of layers.entries()) console.log(`  ${name.padEnd(32)} ${medians[i]!.toFixed(3)} ms  (÷ floor ${(medians[i]! / medians[0]!).toFixed(2)})`);
}
