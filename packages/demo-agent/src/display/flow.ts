import type { AgentUIState, UIFlowNodePart, UIMessage } from '@lousho/build-ai-agent';
import { safeJson } from './values.js';

/** How the demos show a flow run: the same rules in React, Vue and Svelte. */

const KIND_LABELS: Readonly<Record<string, string>> = {
  agent: 'Agent',
  tool: 'Tool',
  step: 'Step',
  oneOf: 'Branch',
  evaluator: 'Expression',
  parallel: 'Parallel',
  approval: 'Approval',
  loop: 'Loop',
};

const STATE_LABELS: Readonly<Record<string, string>> = {
  running: 'Running',
  'awaiting-approval': 'Waiting for you',
  done: 'Done',
  error: 'Failed',
  rejected: 'Rejected',
  cancelled: 'Stopped',
};

/** One node card: what the demos show of a `flow-node` part. */
export interface FlowNodeView {
  /** The pass's id (`<runId>:draft`, `<runId>:draft#2`): a stable key. */
  id: string;
  node: string;
  title: string;
  kind: string;
  kindLabel: string;
  state: string;
  stateLabel: string;
  /** What the node says: an agent's text (as it streams), the branch taken, the decision, the output. */
  detail: string;
}

/** The node parts of the latest run (its reply is the last assistant message). */
export function flowNodesOf(messages: readonly UIMessage[]): UIFlowNodePart[] {
  const last = messages[messages.length - 1];
  if (last?.role !== 'assistant') return [];
  return last.parts.filter((part): part is UIFlowNodePart => part.type === 'flow-node');
}

/** The text of the latest user message (the flow's input, as typed). */
export function lastUserText(messages: readonly UIMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'user') return textOfParts(message);
  }
  return undefined;
}

/** The reply's own text (what a finished flow answers), when it has some. */
export function flowReplyText(messages: readonly UIMessage[]): string {
  const last = messages[messages.length - 1];
  return last?.role === 'assistant' ? textOfParts(last) : '';
}

function textOfParts(message: UIMessage): string {
  return message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The text an agent node's own run shows so far. */
function agentText(run: AgentUIState | undefined): string {
  const reply = run?.messages[run.messages.length - 1];
  return reply?.role === 'assistant' ? textOfParts(reply) : '';
}

export function flowNodeView(part: UIFlowNodePart): FlowNodeView {
  const output = part.result as unknown;
  let detail: string;
  if (part.state === 'error') detail = part.error?.message ?? 'Failed.';
  else if (part.kind === 'agent') detail = agentText(part.run) || (typeof output === 'string' ? output : part.state === 'running' ? 'Thinking…' : '');
  else if (part.kind === 'oneOf') detail = part.state === 'done' ? (output ? `→ ${String(output)}` : 'No branch matched') : 'Choosing…';
  else if (part.kind === 'approval') {
    const decision = output as { approved?: boolean; note?: string } | undefined;
    detail =
      part.state === 'awaiting-approval'
        ? 'Waiting for your decision below.'
        : decision
          ? `${decision.approved ? 'Approved' : 'Rejected'}${decision.note ? `: ${decision.note}` : ''}`
          : part.approval?.approved === true
            ? 'Approved'
            : '';
  } else detail = part.state === 'done' ? (typeof output === 'string' ? output : safeJson(output)) : '';
  return {
    id: part.toolCallId,
    node: part.toolName,
    title: part.displayName || part.toolName,
    kind: part.kind,
    kindLabel: KIND_LABELS[part.kind] ?? part.kind,
    state: part.state,
    stateLabel: STATE_LABELS[part.state] ?? part.state,
    detail,
  };
}
