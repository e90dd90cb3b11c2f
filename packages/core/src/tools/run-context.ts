import type { Message } from '@lousho/protocol';
import { newId } from '../ids.js';
import type { ToolExecutionContext } from '@lousho/protocol';

/** What `buildToolRunContext()` takes; every field is optional. */
export interface ToolRunContextOptions {
  /** The call's id; a new `call_…` id when there is no model turn behind the call (e.g. a flow node). */
  toolCallId?: string;
  /** The transcript before the call; copied and frozen (empty when left out). */
  messages?: readonly Message[];
  abortSignal?: AbortSignal;
  /** Passed through; the agent loop does not set it yet. */
  sessionId?: string;
  /** Where `ctx.reportProgress` goes; a no-op when left out. */
  reportProgress?: (progress: unknown) => void;
}

/**
 * The second argument of `execute(args, ctx)` for a call you run yourself (a wrapper, a test, a flow
 * node), with the same shape the agent loop gives: always a `toolCallId`, a read-only `messages`
 * copy, and the optional fields only when set.
 */
export function buildToolRunContext(options: ToolRunContextOptions = {}): ToolExecutionContext {
  return {
    toolCallId: options.toolCallId ?? newId('call'),
    messages: Object.freeze((options.messages ?? []).slice()),
    ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
    ...(options.sessionId !== undefined ? { sessionId: options.sessionId } : {}),
    reportProgress: options.reportProgress ?? (() => {}),
  };
}
