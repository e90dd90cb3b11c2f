import type { SubagentRef } from '@lousho/core';

/** AG-UI's handle of one sub-agent invocation: the id of the parent's call that started it, unique per invocation. */
export function subagentRunIdOf(ref: SubagentRef): string {
  return `subagent:${ref.toolCallId}`;
}
