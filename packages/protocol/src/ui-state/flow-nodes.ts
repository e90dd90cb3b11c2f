import type { AgentStreamEvent } from '../contracts/events.js';
import type { toolFields } from './reduce.js';
import { allToolFields } from './tool-failures.js';
import type { UIFlowNodePart } from './types.js';

/**
 * `allToolFields` and a flow node's part (see `UIFlowNodePart`): made by its start, its agent run
 * reduced into it (by `reduceRun`, the full reducer); its end is a tool call's end. A module of
 * the full reducer (reduce-agent-events.ts), so a page that runs no flow does not download it.
 */
export const flowNodeFields =
  (reduceRun: (state: UIFlowNodePart['run'] | undefined, event: AgentStreamEvent) => UIFlowNodePart['run']): typeof toolFields =>
  (event, part) => {
    const flowEvent = event as Extract<AgentStreamEvent, { type: `flow.${string}` }>;
    switch (flowEvent.type) {
      case 'flow.node.start':
        return { kind: flowEvent.kind, type: 'flow-node', state: 'running' };
      case 'flow.node.event':
        return part && { run: reduceRun((part as unknown as UIFlowNodePart).run, flowEvent.event as unknown as AgentStreamEvent) };
      case 'flow.node.done':
      case 'flow.node.error':
        return allToolFields({ ...flowEvent, type: flowEvent.type === 'flow.node.done' ? 'tool.done' : 'tool.error' } as Parameters<typeof toolFields>[0], part);
    }
    return allToolFields(event, part);
  };
