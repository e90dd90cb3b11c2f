import type { ToolExecutionContext } from '@lousho/protocol';
import type { RunSnapshot } from '@lousho/protocol';
import type { BatchContinuation, CallScope } from './tool-call.js';

// Not enumerable and keyed by a symbol: tools see a plain context, the loop's own tools (delegation)
// reach the run they are called from.
const scopeKey = Symbol.for('lousho.loopScope');
const resumeKey = Symbol.for('lousho.childResume');

/** How a delegated call goes on from a saved sub-agent state (an approval decided inside it). */
export interface ChildResume {
  snapshot: RunSnapshot;
  continuation: BatchContinuation;
}

/** Lets the tool running under `ctx` reach the run that called it. */
export function attachScope(ctx: ToolExecutionContext, scope: CallScope, resume?: ChildResume): ToolExecutionContext {
  Object.defineProperty(ctx, scopeKey, { value: scope });
  if (resume) Object.defineProperty(ctx, resumeKey, { value: resume });
  return ctx;
}

/** The run a tool is called from; undefined when it is called outside the agent loop. */
export function scopeOf(ctx: ToolExecutionContext | undefined): CallScope | undefined {
  return (ctx as Record<symbol, CallScope | undefined> | undefined)?.[scopeKey];
}

export function childResumeOf(ctx: ToolExecutionContext | undefined): ChildResume | undefined {
  return (ctx as Record<symbol, ChildResume | undefined> | undefined)?.[resumeKey];
}
