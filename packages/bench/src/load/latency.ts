/**
 * Added latency, event produced → bytes written, measured inside a benchmark server's process: a
 * stamped delta carries the time the model made it (`@<µs>`, this process's monotonic clock), and
 * every write of a response is scanned for stamps when it is handed to the socket. Used only in the
 * latency runs: the scan costs CPU, so the CPU runs leave it out.
 */
import { ServerResponse } from 'node:http';

/** Now, in whole microseconds of this process's monotonic clock. */
export function stampNow(): number {
  return Math.round(performance.now() * 1000);
}

const STAMP = /@(\d+) /g;

/** Patches `ServerResponse#write` and `#end` to record, per stamped delta written, how long ago it was made (ms). */
export function recordWriteLatency(): { take(): number[] } {
  let samples: number[] = [];
  const scan = (chunk: unknown): void => {
    if (chunk === undefined || chunk === null || typeof chunk === 'function') return;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('latin1');
    const now = stampNow();
    for (const match of text.matchAll(STAMP)) samples.push((now - Number(match[1])) / 1000);
  };
  const { write, end } = ServerResponse.prototype;
  ServerResponse.prototype.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]) {
    scan(chunk);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof write;
  ServerResponse.prototype.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]) {
    scan(chunk);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as typeof end;
  return {
    take() {
      const taken = samples;
      samples = [];
      return taken;
    },
  };
}
