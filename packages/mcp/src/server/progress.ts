import type { AgentStreamEvent } from '@lousho/core';

/** Longest progress message sent. */
const MAX_MESSAGE_LENGTH = 200;

/** Sends one progress message; `progress` grows by one with each (the protocol wants it to increase). */
export type ProgressSink = (message: string) => void;

/**
 * `send` for a call whose request carried a `progressToken`, else a no-op. A failed notification
 * (the client went away) is dropped: progress never fails a run.
 */
export function progressSink(
  progressToken: string | number | undefined,
  notify: (notification: { method: 'notifications/progress'; params: { progressToken: string | number; progress: number; message: string } }) => Promise<void>,
): ProgressSink {
  if (progressToken === undefined) return () => {};
  let progress = 0;
  return (message) => {
    progress += 1;
    notify({ method: 'notifications/progress', params: { progressToken, progress, message: cut(message) } }).catch(() => {});
  };
}

/**
 * The progress message an event is worth, or undefined: model steps, tool calls and their
 * progress, pauses, and the first text of each step (not every delta).
 */
export function progressMessage(event: AgentStreamEvent, wroteInStep: Set<string>): string | undefined {
  const who = event.subagent ? `${event.subagent.name}: ` : '';
  switch (event.type) {
    case 'run.start':
      return event.subagent ? undefined : event.continuation ? 'Going on' : 'Started';
    case 'step.start':
      return `${who}Thinking (step ${event.step})`;
    case 'text.delta': {
      const key = `${event.subagent?.toolCallId ?? ''}#${event.step}`;
      if (wroteInStep.has(key)) return undefined;
      wroteInStep.add(key);
      return `${who}Writing`;
    }
    case 'tool.call':
      return `${who}Calling ${event.displayName}`;
    case 'tool.progress':
      return `${who}${event.toolName}: ${describeProgress(event.progress)}`;
    case 'tool.done':
      return `${who}${event.toolName} done`;
    case 'tool.error':
      return `${who}${event.toolName} failed`;
    case 'approval.requested':
      return event.approval.kind === 'question' ? `${who}Waiting for an answer` : `${who}Waiting for approval of ${event.approval.displayName}`;
    default:
      return undefined;
  }
}

function describeProgress(progress: unknown): string {
  if (typeof progress === 'string') return progress;
  if (typeof progress === 'object' && progress !== null) {
    const { message, label } = progress as { message?: unknown; label?: unknown };
    if (typeof message === 'string') return message;
    if (typeof label === 'string') return label;
  }
  try {
    return JSON.stringify(progress) ?? 'working';
  } catch {
    return 'working';
  }
}

function cut(message: string): string {
  return message.length > MAX_MESSAGE_LENGTH ? `${message.slice(0, MAX_MESSAGE_LENGTH - 1)}…` : message;
}
