import { trimPartialCharacter } from './text.js';

/**
 * Collects a stream's output within `maxBytes`: past the cap it keeps the first half and the last
 * half (where errors usually are) and says how much of the middle was dropped.
 */
export class OutputBuffer {
  private chunks: Uint8Array[] = [];
  private total = 0;
  private head: Uint8Array | undefined;
  private tail: Uint8Array = new Uint8Array(0);

  constructor(private readonly maxBytes: number) {}

  get truncated(): boolean {
    return this.total > this.maxBytes;
  }

  push(chunk: Uint8Array): void {
    this.total += chunk.length;
    if (!this.head) {
      this.chunks.push(chunk);
      if (this.total <= this.maxBytes) return;
      const all = concat(this.chunks);
      this.chunks = [];
      const half = Math.ceil(this.maxBytes / 2);
      this.head = all.subarray(0, half);
      this.tail = all.subarray(Math.max(half, all.length - Math.floor(this.maxBytes / 2)));
      return;
    }
    const keep = Math.floor(this.maxBytes / 2);
    const joined = concat([this.tail, chunk]);
    this.tail = joined.subarray(Math.max(0, joined.length - keep));
  }

  text(): string {
    const decoder = new TextDecoder('utf-8');
    if (!this.head) return decoder.decode(concat(this.chunks));
    const head = this.head.subarray(0, trimPartialCharacter(this.head));
    let start = 0;
    while (start < this.tail.length && (this.tail[start]! & 0xc0) === 0x80) start++;
    const tail = this.tail.subarray(start);
    const omitted = this.total - head.length - tail.length;
    return `${decoder.decode(head)}\n[… ${omitted} bytes of output omitted …]\n${decoder.decode(tail)}`;
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The same cap for text that is already a string (scripted output). */
export function capText(text: string, maxBytes: number): { text: string; truncated: boolean } {
  const buffer = new OutputBuffer(maxBytes);
  buffer.push(new TextEncoder().encode(text));
  return { text: buffer.text(), truncated: buffer.truncated };
}
