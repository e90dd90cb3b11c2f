import type { UIFlowNodePart } from '@lousho/build-ai-agent';
import { flowNodeView } from '@lousho/demo-agent';

/** One node of the flow run: its kind, where it is, and what it says (an agent's text as it streams). */
export function FlowNodeCard({ part }: { part: UIFlowNodePart }) {
  const view = flowNodeView(part);
  return (
    <article className={`flow-card flow-${view.state}`} data-testid="flow-node" data-node={view.node} data-kind={view.kind} data-state={view.state}>
      <header className="flow-card-header">
        <span className="flow-kind">{view.kindLabel}</span>
        <span className={`badge badge-${view.state}`}>
          {view.state === 'running' ? <span className="spinner" aria-hidden="true" /> : null}
          {view.stateLabel}
        </span>
      </header>
      <span className="flow-title">{view.title}</span>
      {view.detail ? (
        <p className="flow-detail" data-testid="flow-node-detail">
          {view.detail}
        </p>
      ) : null}
    </article>
  );
}
