import type { AgentStreamEvent, PendingApprovalInfo } from '../contracts/events.js';
import { textOf, type Message } from '../messages.js';
import type { ToolErrorResult } from '../contracts/tools.js';
import type { reduceAgentEvents } from './reduce-agent-events.js';
import { INITIAL } from './snapshot.js';
import type { AgentUIState, AgentUIStatus, AnyUIToolPart, UIToolPart } from './types.js';

/** Options of `stateFromTranscript()`: what a transcript does not hold about the session. */
export interface TranscriptStateOptions {
  /** The session's last sequence number, so events replayed after it are applied and earlier ones ignored. */
  lastSeq?: number;
  /** The session's latest run, so the state's `runId` is right before any event arrives. Default: none. */
  runId?: string;
  /** The status to restore when no approval is pending (default `idle`). */
  status?: AgentUIStatus;
  /** A tool's display name (the transcript keeps only its name); defaults to the name. */
  displayName?: (toolName: string) => string;
}

/**
 * `stateFromTranscript()` (state-from-transcript.ts) with the reducer passed in: the in-process
 * transport's chunk passes the one it loaded on demand, since a chunk that imported the full
 * reducer itself would cost every page a preload list.
 */
export function replayTranscript<ToolPart extends AnyUIToolPart = UIToolPart>(
  reduce: typeof reduceAgentEvents,
  messages: readonly Message[],
  pending?: PendingApprovalInfo | null,
  options: TranscriptStateOptions = {},
): AgentUIState<ToolPart> {
  const { runId, displayName = (name: string) => name } = options;
  // The tool calls seen so far: a tool message whose call is not in the transcript is dropped.
  const calls = new Set<string | undefined>();
  /** The calls whose stored arguments are not JSON. */
  const textArgs = new Set<string>();
  // (The initial state itself: what `initialAgentUIState()` returns, without the call.)
  let state = INITIAL;
  const apply = (event: object): void => {
    state = reduce(state, { runId, ...event } as AgentStreamEvent);
  };
  for (const message of messages) {
    const { role, toolCallId } = message;
    if (role === 'user') apply({ type: 'user.message', message });
    else if (role === 'assistant') {
      apply({ type: 'step.start' });
      const text = textOf(message);
      if (text) apply({ type: 'text.delta', delta: text });
      for (const { id, name, arguments: argsText } of message.toolCalls ?? []) {
        calls.add(id);
        const call = { toolCallId: id, toolName: name, displayName: displayName(name) };
        const args = parseJson(argsText);
        // Arguments that are not JSON are kept as their text, as a call whose input streamed.
        if (args === undefined) {
          textArgs.add(id);
          apply({ type: 'tool.input.start', ...call });
          apply({ type: 'tool.input.delta', toolCallId: id, delta: argsText });
        }
        apply({ type: 'tool.call', ...call, args });
      }
    } else if (role === 'tool' && calls.has(toolCallId)) apply({ toolCallId, ...toolOutcome(message) });
  }
  // `tool.call` sets `args`, undefined for those calls: such a call has only its `argsText` (no
  // `args` key), as it had before the replay. Its parts are this function's own new objects.
  if (textArgs.size)
    for (const { parts } of state.messages)
      for (const part of parts as Partial<UIToolPart>[]) if (textArgs.has(part.toolCallId!) && part.args === undefined) delete part.args;
  if (pending) apply({ type: 'approval.requested', approval: pending });
  // The restored status, sequence number and run, with a step boundary (what comes next starts a part of its own).
  state = reduce(
    { ...state, status: pending ? 'awaiting-approval' : (options.status ?? 'idle'), pendingApproval: pending ?? null, lastSeq: options.lastSeq ?? 0 },
    { type: 'step.start', runId } as AgentStreamEvent,
  );
  return state as unknown as AgentUIState<ToolPart>;
}

/** A tool message as its call's event: its result (JSON when it parses), or its error. */
function toolOutcome(message: Message): object {
  const text = textOf(message);
  if (message.isError) {
    const parsed = parseJson(text);
    const error: ToolErrorResult = isToolErrorResult(parsed)
      ? parsed
      : { error: 'ToolError', toolName: message.toolName ?? '', message: text, kind: 'execution' };
    return { type: 'tool.error', error };
  }
  const parsed = parseJson(text);
  return { type: 'tool.done', result: parsed === undefined ? text : parsed };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isToolErrorResult(value: unknown): value is ToolErrorResult {
  const v = value as Partial<ToolErrorResult> | null;
  return typeof v === 'object' && v !== null && typeof v.kind === 'string' && typeof v.message === 'string' && typeof v.error === 'string';
}
