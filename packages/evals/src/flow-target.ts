import type { AgentStreamEvent } from '@lousho/core';
import type { FlowRun } from '@lousho/flows';
import type { EvalOutput, EvalToolCall } from './types.js';

/** A nested event of a node, as `flow.node.event` carries it. */
type Nested = { type: string; toolCallId?: string; toolName?: string; args?: unknown; result?: unknown; error?: unknown };

/**
 * Runs a flow to its end and describes it as scorers see a run: `text` is the output of the last
 * node that finished (a string as it is, anything else as JSON), `object` every node's output by
 * id, `toolCalls` the calls its tool nodes and its agents' tools made (in the order they started),
 * `steps` the nodes that ran, `usage` every agent call added up.
 */
export async function flowOutput(run: FlowRun, started: number): Promise<EvalOutput> {
  const calls = new Map<string, EvalToolCall>();
  for await (const event of run as AsyncIterable<AgentStreamEvent>) {
    if (event.type !== 'flow.node.event') continue;
    const nested = event.event as Nested;
    // A node's calls are its own (the same id in two agents' sessions is two calls).
    const key = `${event.toolCallId}\u0000${String(nested.toolCallId)}`;
    if (nested.type === 'tool.call') calls.set(key, { name: String(nested.toolName), args: nested.args, result: undefined, isError: false });
    else if (nested.type === 'tool.done') {
      const call = calls.get(key);
      if (call) call.result = nested.result;
    } else if (nested.type === 'tool.error') {
      const call = calls.get(key);
      if (call) Object.assign(call, { result: nested.error, isError: true });
    }
  }
  const result = await run.result;
  const last = result.path.at(-1);
  const value = last === undefined ? undefined : (result.outputs as Record<string, unknown>)[last];
  return {
    text: typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value),
    object: result.outputs,
    toolCalls: [...calls.values()],
    usage: result.usage,
    steps: result.path.length,
    finishReason: result.finishReason,
    durationMs: performance.now() - started,
    result,
  };
}
