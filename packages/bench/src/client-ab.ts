/**
 * The HTTP client of two (or more) builds of `@lousho/core` side by side, in one process: the same
 * streams as the client pipeline benchmark, each build's `createHttpAgentClient` → `send()` taking
 * turns with the others and with the floor (`eventsource-parser` + `JSON.parse` over the AI SDK's
 * bytes of the same stream), round by round. For comparing a change with the code before it, which
 * `pnpm bench` (one tree, from source) cannot do in one run; between two runs this machine's speed
 * moves more than most changes save. A build is a folder holding `@lousho/core`'s `dist` (copy it
 * aside before rebuilding).
 *
 *   npx tsx src/client-ab.ts /path/to/dist-before,/path/to/dist-after [rounds=9] [cells=a64,b64,b16K]
 *
 * Cells: a64, a16K (one reply of 100,000 text deltas), a'7, a'64 (10,000 deltas of CJK text), b7,
 * b64, b16K (20 steps × 5 tool calls); the number is the read size.
 */
import { createParser } from 'eventsource-parser';
import { chunked, longReply, toolRun } from './client-pipeline.bench.js';
import { median } from './stats.js';

const builds = (process.argv[2] ?? '').split(',').filter(Boolean);
if (builds.length < 2) throw new Error('Usage: client-ab.ts <dist>,<dist>[,...] [rounds] [cells]');
const rounds = Number(process.argv[3] ?? 9);
const wanted = (process.argv[4] ?? 'a64,b64,b16K').split(',');

type Client = { send(input: string): Promise<{ ok: boolean }>; getSnapshot(): { messages: readonly { role: string; parts: readonly { type: string; text?: string }[] }[] } };
type Core = { createHttpAgentClient(source: { url: string; fetch: () => Promise<Response> }): Client };
const cores: Core[] = await Promise.all(builds.map((dir) => import(`${dir}/index.js`) as Promise<Core>));

/** A body that hands out one chunk per read, as a network stream does. */
function bodyOf(chunks: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]!);
      else controller.close();
    },
  });
}

/** One build's client over the stream; checks the reply's text, so no build can skip work. */
async function client(core: Core, chunks: readonly Uint8Array[], text: string): Promise<void> {
  const headers = { 'content-type': 'text/event-stream' };
  const agent = core.createHttpAgentClient({ url: 'http://bench.invalid/agent', fetch: async () => new Response(bodyOf(chunks), { headers }) });
  if (!(await agent.send('go')).ok) throw new Error('the client failed');
  let got = '';
  for (const message of agent.getSnapshot().messages) if (message.role === 'assistant') for (const part of message.parts) if (part.type === 'text') got += part.text;
  if (got !== text) throw new Error(`the client ended with ${got.length} characters, not ${text.length}`);
}

/** The floor: bytes → text → SSE events → JSON values, nothing kept. */
async function floor(chunks: readonly Uint8Array[]): Promise<void> {
  const sse = createParser({ onEvent: (event) => void (event.data !== '[DONE]' && JSON.parse(event.data)) });
  const decoder = new TextDecoder();
  const reader = bodyOf(chunks).getReader();
  for (let read; !(read = await reader.read()).done; ) sse.feed(decoder.decode(read.value, { stream: true }));
}

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
  const ours = chunked(scenario.lousho, size);
  const theirs = chunked(scenario.aiSdk, size);
  const runs = [...cores.map((core) => () => client(core, ours, scenario.text)), () => floor(theirs)];
  // Each sample repeats its run for about 50 ms (timer resolution), after one run to warm up.
  const repeats: number[] = [];
  for (const run of runs) {
    await run();
    const start = performance.now();
    await run();
    repeats.push(Math.max(1, Math.ceil(50 / (performance.now() - start))));
  }
  const samples: number[][] = runs.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (let r = 0; r < runs.length; r++) {
      const start = performance.now();
      for (let k = 0; k < repeats[r]!; k++) await runs[r]!();
      samples[r]!.push((performance.now() - start) / repeats[r]!);
    }
  }
  const medians = samples.map(median);
  const floorMs = medians.pop()!;
  const shown = builds.map((dir, i) => `${dir}: ${medians[i]!.toFixed(2)} ms (× first ${(medians[i]! / medians[0]!).toFixed(3)}, ÷ floor ${(medians[i]! / floorMs).toFixed(2)})`);
  console.log(`${name} (median of ${rounds} rounds): floor ${floorMs.toFixed(2)} ms | ${shown.join(' | ')}`);
}
