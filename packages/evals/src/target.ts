import { isAbortError, type ExecutionResult, type ToolCallRecord } from '@lousho/core';
import { FlowExecutor, type Flow, type FlowResult } from '@lousho/flows';
import { evalError } from './errors.js';
import { flowOutput } from './flow-target.js';
import type { Eval, EvalOutput, EvalToolCall } from './types.js';

/** Runs one case's input on the eval's agent (in a new session) and describes what it did. */
export async function runTarget(ev: Eval<any, any>, input: unknown, signal: AbortSignal, timeoutMs: number | undefined): Promise<EvalOutput> {
  const timeout = timeoutMs !== undefined ? AbortSignal.timeout(timeoutMs) : undefined;
  const runSignal = timeout ? AbortSignal.any([signal, timeout]) : signal;
  const started = performance.now();
  let result: ExecutionResult;
  try {
    if (ev.flow) {
      // A flow run in a session of its own (the executor's default), its events read for the tool calls.
      const run = FlowExecutor.stream(ev.flow as Flow<unknown, Record<string, unknown>>, input, { signal: runSignal });
      const output = await flowOutput(run, started);
      const flowResult: FlowResult = output.result as FlowResult;
      if (timeout?.aborted && !signal.aborted && flowResult.finishReason === 'aborted') throw timedOut(timeoutMs!);
      return output;
    }
    result = await ev.agent!.send(input as never, { signal: runSignal });
  } catch (error) {
    if (timeout?.aborted && !signal.aborted && isAbortError(error)) throw timedOut(timeoutMs!);
    throw error;
  }
  const durationMs = performance.now() - started;
  if (timeout?.aborted && !signal.aborted && result.finishReason === 'aborted') throw timedOut(timeoutMs!);
  return {
    text: result.text,
    ...(result.object !== undefined ? { object: result.object } : {}),
    toolCalls: toolCallsInCallOrder(result),
    usage: result.usage,
    steps: result.steps,
    finishReason: result.finishReason,
    durationMs,
    result,
  };
}

function timedOut(ms: number) {
  return evalError('LOUSHO_EVAL_TIMEOUT', `The run took longer than ${ms} ms and was stopped.`, 'Raise the eval’s timeoutMs, or look at why the run is slow (a tool, the model).');
}

/**
 * The run's tool calls in the order the model asked for them. `result.toolCalls` lists calls as
 * they finished (parallel calls in completion order); the transcript keeps the model's order.
 * Providers may use one id for calls of different steps (`call_0` in each), so records are matched
 * from the end: the last call with an id takes the last record with it, and so on back.
 */
export function toolCallsInCallOrder(result: Pick<ExecutionResult, 'messages' | 'toolCalls'>): EvalToolCall[] {
  const records = recordsById(result.toolCalls);
  const asked = result.messages.flatMap((message) => (message.role === 'assistant' && message.toolCalls ? message.toolCalls : []));
  const calls: EvalToolCall[] = new Array(asked.length);
  for (let i = asked.length - 1; i >= 0; i--) {
    const call = asked[i]!;
    const record = records.get(call.id)?.pop();
    calls[i] = record ? { name: call.name, args: record.args, result: record.result, isError: record.isError } : { name: call.name, args: parseArgs(call.arguments), result: undefined, isError: false };
  }
  return calls;
}

/** The records of each call id, in the order they finished. */
function recordsById(records: readonly ToolCallRecord[]): Map<string, ToolCallRecord[]> {
  const byId = new Map<string, ToolCallRecord[]>();
  for (const record of records) {
    const list = byId.get(record.toolCallId);
    if (list) list.push(record);
    else byId.set(record.toolCallId, [record]);
  }
  return byId;
}

function parseArgs(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
