import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { defineTool, type GenerateOptions, type LLMProvider, type Message, type StreamChunk } from '@lousho/core';

/** Model turns that ask for tools before the final answer. */
export const TOOL_TURNS = 6;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A short, stable fingerprint of a transcript prefix. */
export function fingerprint(messages: readonly Message[]): string {
  const text = JSON.stringify(messages);
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36);
}

export interface ModelRequestLog {
  pid: number;
  prefixLen: number;
  prefix: string;
}

/**
 * A model whose every reply is a function of the transcript alone: turn k (the number of assistant
 * messages so far) asks for 1-3 `work` calls with ids `call_k_j`, then the last turn answers with a
 * digest of every tool result. So a run that is resumed must end with exactly the same transcript
 * as one that never stopped. With `streamCalls`, call arguments stream in pieces.
 */
export function scriptedProvider(options: { onRequest?: (log: ModelRequestLog) => void; delayMs?: number; streamCalls?: boolean } = {}): LLMProvider {
  const delay = options.delayMs ?? 0;
  return {
    name: 'scripted',
    defaultModel: 'scripted-model',
    async *stream(request: GenerateOptions): AsyncIterable<StreamChunk> {
      const messages = request.messages;
      options.onRequest?.({ pid: process.pid, prefixLen: messages.length, prefix: fingerprint(messages) });
      const turn = messages.filter((m) => m.role === 'assistant').length;
      const pieces = turn < TOOL_TURNS ? [`Step ${turn}: `, 'working ', 'on it.'] : ['All done: ', digest(messages)];
      for (const text of pieces) {
        if (delay) await sleep(delay);
        yield { type: 'text-delta', text };
      }
      if (turn < TOOL_TURNS) {
        const calls = 1 + (turn % 3);
        for (let j = 0; j < calls; j++) {
          const id = `call_${turn}_${j}`;
          const args = JSON.stringify({ turn, part: j });
          if (!options.streamCalls) {
            yield { type: 'tool-call', index: j, id, name: 'work', arguments: args };
            continue;
          }
          // Streamed arguments: a cut in the middle leaves a call `input-streaming` in the UI.
          yield { type: 'tool-call-start', index: j, id, name: 'work' };
          for (const piece of [args.slice(0, 8), args.slice(8)]) {
            if (delay) await sleep(delay);
            yield { type: 'tool-call-delta', index: j, argumentsDelta: piece };
          }
        }
        yield { type: 'finish', finishReason: 'tool_calls', usage: { promptTokens: 10, completionTokens: 5 } };
      } else {
        yield { type: 'finish', finishReason: 'stop', usage: { promptTokens: 10, completionTokens: 5 } };
      }
    },
  };
}

function digest(messages: readonly Message[]): string {
  return messages
    .filter((m) => m.role === 'tool')
    .map((m) => m.content)
    .join(',');
}

/** The `work` tool: takes a few ms, logs each execution (with its toolCallId) to `tools.log` in `logDir`. */
export function workTool(logDir?: string) {
  return defineTool({
    name: 'work',
    description: 'Does one part of the job',
    input: z.object({ turn: z.number(), part: z.number() }),
    async execute({ turn, part }, ctx) {
      await sleep(2 + ((turn * 7 + part * 3) % 9));
      if (logDir) appendFileSync(join(logDir, 'tools.log'), `${JSON.stringify({ pid: process.pid, toolCallId: ctx.toolCallId })}\n`);
      return `w${turn}.${part}`;
    },
  });
}
