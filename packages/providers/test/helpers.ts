import type { LLMProvider, StreamChunk, GenerateOptions } from '../src/index.js';
import { StreamAssembler } from '../src/index.js';

/** Every chunk of one streamed turn. */
export async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const out: StreamChunk[] = [];
  for await (const chunk of stream) out.push(chunk);
  return out;
}

/** One whole turn, assembled the way the agent loop assembles it. */
export async function turn(provider: LLMProvider, options: GenerateOptions) {
  const assembler = new StreamAssembler();
  for await (const chunk of provider.stream(options)) assembler.push(chunk);
  return assembler.result();
}

/** The error a promise rejects with (fails the test if it resolves). */
export async function failure(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to fail, but it succeeded');
}

export const user = (content: string) => ({ role: 'user' as const, content });
