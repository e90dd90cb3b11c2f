import type { Message, ToolCall } from '@lousho/protocol';
import type { GenerateOptions, GenerateResult, ModelFinishReason } from '@lousho/protocol';
import type { UsageTracker } from '../../usage/tracker.js';
import type { StepUsage } from '@lousho/protocol';
import { emitListener, type LoopDeps } from '../loop-deps.js';
import type { RunSnapshot } from '@lousho/protocol';
import { recordCallUsage, type StreamedCall } from './model-call.js';

/** What the model answered in one call. */
export interface ModelAnswer {
  text: string;
  toolCalls: ToolCall[];
  finishReason: ModelFinishReason;
  stepUsage: StepUsage;
}

/**
 * After a model call that finished: its usage is counted, its answer joins the transcript, then the
 * `postGenerate` hooks, `onLLMResponse`, `step.done` / `text-complete` and a checkpoint.
 */
export async function recordAnswer(deps: LoopDeps, snapshot: RunSnapshot, usage: UsageTracker, call: StreamedCall, request: GenerateOptions, step: number): Promise<ModelAnswer> {
  const { assembler } = call;
  const text = assembler.text;
  const toolCalls = assembler.toolCalls;
  const finishReason = assembler.finishReason;
  const response: GenerateResult = { text, toolCalls, finishReason, ...(assembler.usage ? { usage: assembler.usage } : {}) };
  const stepUsage = recordCallUsage(deps, usage, call, request, { text, toolCalls });
  snapshot.usage = usage.snapshot();
  snapshot.stepUsage.push(stepUsage);
  call.chat?.end(stepUsage, finishReason, text, toolCalls);

  const assistant: Message = { role: 'assistant', content: text };
  if (toolCalls.length > 0) assistant.toolCalls = toolCalls;
  snapshot.messages.push(Object.freeze(assistant));

  const hookCtx = { runId: snapshot.runId, sessionId: snapshot.sessionId, step, request };
  for (const hook of deps.hooks) if (hook.postGenerate) await hook.postGenerate({ ...hookCtx, ...(deps.subagent ? { subagent: deps.subagent } : {}) }, response);
  deps.onLLMResponse?.(response, step, stepUsage);
  deps.emit({ type: 'step.done', step, finishReason, usage: snapshot.usage, stepUsage });
  emitListener(deps, { type: 'text-complete', runId: snapshot.runId, step, text, usage: snapshot.usage, stepUsage });
  await deps.checkpoint?.(snapshot);
  return { text, toolCalls, finishReason, stepUsage };
}
