/**
 * How fast a mock model hands over its deltas:
 *   - `burst`: all at once (the server's best case: a turn's deltas go out in a few large writes);
 *   - `tick`: the model yields to the event loop (`setImmediate`) before each delta, so a reader
 *     that keeps up gets each delta in a write of its own;
 *   - `model`: a real model's pace, each delta `minMs`..`maxMs` after the one before (uniform,
 *     from a seeded generator, so every run and every server sees the same gaps).
 * Written `burst`, `tick` or `model:20-50` on a child's command line.
 */
export type Pace = { kind: 'burst' } | { kind: 'tick' } | { kind: 'model'; minMs: number; maxMs: number };

export function parsePace(text: string | undefined): Pace {
  if (!text || text === 'burst') return { kind: 'burst' };
  if (text === 'tick') return { kind: 'tick' };
  const model = /^model:(\d+)-(\d+)$/.exec(text);
  if (model) return { kind: 'model', minMs: Number(model[1]), maxMs: Number(model[2]) };
  throw new Error(`Unknown pace '${text}': burst, tick or model:<min>-<max> (ms).`);
}

export function paceText(pace: Pace): string {
  return pace.kind === 'model' ? `model:${pace.minMs}-${pace.maxMs}` : pace.kind;
}

/**
 * The waits of one stream: `next()` resolves when the next delta is due. Each stream draws its own
 * gaps from a generator seeded by its number, so the load is the same whichever server serves it.
 */
export function pacer(pace: Pace, stream: number): { next(): Promise<void> | undefined } {
  if (pace.kind === 'burst') return { next: () => undefined };
  if (pace.kind === 'tick') return { next: () => new Promise<void>((resolve) => setImmediate(resolve)) };
  let seed = (stream * 2654435761) >>> 0 || 1;
  const span = pace.maxMs - pace.minMs;
  return {
    next() {
      // xorshift32: cheap and good enough for spreading gaps.
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      const gap = pace.minMs + ((seed >>> 0) / 0x1_0000_0000) * span;
      return new Promise<void>((resolve) => setTimeout(resolve, gap));
    },
  };
}
