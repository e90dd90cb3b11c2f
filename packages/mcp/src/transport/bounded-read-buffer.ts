// Node only (Buffer): the stdio transport's line reader, with a size bound per message.
import { deserializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { EDGE_BYTES, responsesForDropped, type PendingRequests } from './oversized.js';

type Ready = { line: string } | { message: JSONRPCMessage };

/**
 * Splits a server's stdout into messages (one JSON-RPC message a line), as the SDK's `ReadBuffer`
 * does, but never keeps more than `limit` bytes of one: a longer line is read on without being kept
 * (only its first and last bytes, to find its id) and becomes an error response for its call.
 * The SDK's buffer instead kept up to 10 MB, copying it on every chunk, then closed the connection.
 */
export class BoundedReadBuffer {
  #chunks: Buffer[] = [];
  #size = 0;
  #dropping: { head: string; tail: Buffer; bytes: number } | undefined;
  readonly #ready: Ready[] = [];

  constructor(
    readonly limit: number,
    readonly pending: PendingRequests,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(10, start);
      this.#take(chunk.subarray(start, newline === -1 ? chunk.length : newline));
      if (newline === -1) return;
      this.#endLine();
      start = newline + 1;
    }
  }

  readMessage(): JSONRPCMessage | null {
    const next = this.#ready.shift();
    if (!next) return null;
    const message = 'message' in next ? next.message : deserializeMessage(next.line);
    this.pending.received(message);
    return message;
  }

  clear(): void {
    this.#chunks = [];
    this.#size = 0;
    this.#dropping = undefined;
    this.#ready.length = 0;
  }

  #take(part: Buffer): void {
    const dropping = this.#dropping;
    if (dropping) {
      dropping.bytes += part.length;
      dropping.tail = lastBytes(Buffer.concat([dropping.tail, part]));
      return;
    }
    if (this.#size + part.length <= this.limit) {
      this.#chunks.push(part);
      this.#size += part.length;
      return;
    }
    const kept = Buffer.concat([...this.#chunks, part]);
    this.#dropping = { head: kept.subarray(0, EDGE_BYTES).toString('utf8'), tail: lastBytes(kept), bytes: kept.length };
    this.#chunks = [];
    this.#size = 0;
  }

  #endLine(): void {
    const dropping = this.#dropping;
    if (dropping) {
      this.#dropping = undefined;
      const answers = responsesForDropped(dropping.head, dropping.tail.toString('utf8'), dropping.bytes, this.limit, this.pending.all());
      for (const message of answers) this.#ready.push({ message });
      return;
    }
    const line = Buffer.concat(this.#chunks).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    if (line.trim() !== '') this.#ready.push({ line });
  }
}

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length > EDGE_BYTES ? Buffer.from(buffer.subarray(buffer.length - EDGE_BYTES)) : buffer;
}
