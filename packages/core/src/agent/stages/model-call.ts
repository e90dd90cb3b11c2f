import type { Message, ToolCall } from '@lousho/protocol';
import { estimateTokens } from '../../models/tokens.js';
import { isAbortError } from '@lousho/providers';
import { StreamAssembler } from '@lousho/providers';
import type { GenerateOptions, StreamChunk } from '@lousho/protocol';
import type { ChatTrace } from '../../tracing/run-tracer.js';
import type { UsageTracker } from '../../usage/tracker.js';
import type { StepUsage } from '@lousho/protocol';
import type { LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';

/** One model call as it streamed. */
export interface StreamedCall {
  assembler: StreamAssembler;
  /** The run was stopped during the call (its unfinished tool calls are dropped). */
  aborted: boolean;
  /** The model the call was sent to. */
  modelId: string;
  chat: ChatTrace | undefined;
}

/**
 * The stage "model": streams the call, emitting `text.delta`, `reasoning.delta` and `tool.input.*`
 * as the chunks come. A stop (the run's signal, or an abort error) ends the stream quietly
 * (`aborted`); any other failure of the provider propagates.
 */
export async function streamModelCall(deps: LoopDeps, snapshot: RunSnapshot, step: number, request: GenerateOptions): Promise<StreamedCall> {
  const assembler = new StreamAssembler();
  const modelId = snapshot.model || deps.provider.defaultModel || deps.provider.name;
  const chat = deps.tracer?.chat(step, request, modelId);
  const signal = deps.signal;
  let aborted = false;
  try {
    aborted = await pump(deps, step, request, assembler, chat);
  } catch (err) {
    if (!(signal?.aborted || isAbortError(err))) {
      chat?.fail(err);
      throw err;
    }
    aborted = true;
  }
  return { assembler, aborted: aborted || Boolean(signal?.aborted), modelId, chat };
}

/** Feeds the stream to the assembler and the events; true when the run was stopped mid-stream. */
async function pump(deps: LoopDeps, step: number, request: GenerateOptions, assembler: StreamAssembler, chat: ChatTrace | undefined): Promise<boolean> {
  const callIds = new Map<number, string>();
  // Looked at after every chunk: a flag the signal sets, not its `aborted` getter (which checks
  // its receiver each time), once per delta.
  const signal = deps.signal;
  let stopped = signal?.aborted ?? false;
  const stop = (): void => {
    stopped = true;
  };
  signal?.addEventListener('abort', stop, { once: true });
  try {
    for await (const chunk of deps.provider.stream(request)) {
      emitChunk(deps, step, chunk, assembler, chat, callIds);
      if (stopped) return true;
    }
  } finally {
    signal?.removeEventListener('abort', stop);
  }
  return false;
}

/** One chunk of the model's stream: to the assembler, and as its event. */
function emitChunk(deps: LoopDeps, step: number, chunk: StreamChunk, assembler: StreamAssembler, chat: ChatTrace | undefined, callIds: Map<number, string>): void {
  chat?.chunk();
  assembler.push(chunk);
  switch (chunk.type) {
    case 'text-delta':
      if (chunk.text) deps.emit({ type: 'text.delta', step, delta: chunk.text });
      break;
    case 'reasoning-delta':
      if (chunk.text) deps.emit({ type: 'reasoning.delta', step, delta: chunk.text });
      break;
    case 'tool-call-start':
      callIds.set(chunk.index, chunk.id);
      deps.emit({ type: 'tool.input.start', step, toolCallId: chunk.id, toolName: chunk.name, displayName: deps.tools.get(chunk.name)?.displayName ?? chunk.name });
      break;
    case 'tool-call-delta': {
      const id = callIds.get(chunk.index);
      if (id && chunk.argumentsDelta) deps.emit({ type: 'tool.input.delta', toolCallId: id, delta: chunk.argumentsDelta });
      break;
    }
    default:
      break;
  }
}

/**
 * Counts the call in the run's usage: what the provider reported, else estimated from the prompt
 * and `output`. With `fallbackModels`, under the model that answered it.
 */
export function recordCallUsage(deps: LoopDeps, usage: UsageTracker, call: StreamedCall, request: GenerateOptions, output: { text: string; toolCalls: ToolCall[] }): StepUsage {
  const { assembler, modelId } = call;
  return usage.record({
    model: deps.modelUsed?.() || modelId,
    ...(assembler.usage ? { reported: assembler.usage } : {}),
    estimateInput: () => estimateTokens(request.system ? [{ role: 'system', content: request.system }, ...request.messages] : [...request.messages], { model: modelId }),
    estimateOutput: () => estimateTokens({ role: 'assistant', content: output.text, ...(output.toolCalls.length ? { toolCalls: output.toolCalls } : {}) }, { model: modelId }),
  });
}

/**
 * A call the run was stopped during: it costs something too (counted as reported, else estimated
 * from what streamed), and the text the person already saw is kept in the transcript (marked
 * `aborted`). Returns that text ('' when none streamed).
 */
export async function keepStoppedCall(deps: LoopDeps, snapshot: RunSnapshot, usage: UsageTracker, call: StreamedCall, request: GenerateOptions): Promise<string> {
  const { assembler } = call;
  const partial = assembler.text;
  snapshot.stepUsage.push(recordCallUsage(deps, usage, call, request, { text: partial + assembler.reasoning, toolCalls: assembler.toolCalls }));
  snapshot.usage = usage.snapshot();
  call.chat?.aborted(snapshot.stepUsage.at(-1));
  if (partial) snapshot.messages.push(Object.freeze({ role: 'assistant', content: partial, metadata: { aborted: true } }) as Message);
  await deps.checkpoint?.(snapshot);
  return partial;
}
