import type { IncomingMessage } from 'node:http';
import { ERROR_CODES, SDKError } from '@lousho/core';

/** A request body past the adapter's limit (answered 413). */
export class BodyTooLargeError extends SDKError {
  constructor(readonly limit: number) {
    super(ERROR_CODES.LOUSHO_BODY_TOO_LARGE, `The body is larger than the limit of ${limit} bytes.`, { hint: 'Send a smaller body, or raise the adapter\'s maxBodyBytes.' });
    this.name = 'BodyTooLargeError';
  }
}

/** The request body as one Buffer, refused past `limit` bytes (declared or counted). */
export function readRawBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume(); // drain and drop it, so the 413 can still be sent
      reject(new BodyTooLargeError(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.byteLength;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        req.resume();
        reject(new BodyTooLargeError(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.once('end', () => {
      if (done) return;
      done = true;
      resolve(Buffer.concat(chunks, size));
    });
    req.once('error', (error) => {
      if (done) return;
      done = true;
      reject(error);
    });
  });
}
