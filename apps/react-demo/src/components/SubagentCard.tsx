import type { UIPart, UISubagent } from '@lousho/build-ai-agent';
import { SUBAGENT_STATUS_LABELS } from '@lousho/demo-agent';
import { MarkdownText } from './MarkdownText.tsx';
import { ToolCard } from './ToolCard.tsx';

/** A sub-agent's work inside the delegating call's card, live: its text, its own tool cards and its approval. Collapsible. */
export function SubagentCard({ subagent }: { subagent: UISubagent }) {
  const working = subagent.status === 'running';
  return (
    <details className={`subagent subagent-${subagent.status}`} open data-testid="subagent" data-subagent={subagent.name} data-status={subagent.status}>
      <summary className="subagent-summary">
        <span className="subagent-label">Sub-agent</span>
        <strong className="subagent-name">{subagent.name}</strong>
        <span className={`badge badge-subagent-${subagent.status}`} data-testid="subagent-status">
          {working ? <span className="spinner" aria-hidden="true" /> : null}
          {SUBAGENT_STATUS_LABELS[subagent.status]}
        </span>
      </summary>
      <div className="subagent-parts">
        {subagent.parts.length === 0 ? <p className="subagent-empty">Starting…</p> : null}
        {subagent.parts.map((part, index) => (
          <SubagentPart key={part.type === 'tool' ? `${index}:${part.toolCallId}` : index} part={part} streaming={working && index === subagent.parts.length - 1} />
        ))}
      </div>
    </details>
  );
}

function SubagentPart({ part, streaming }: { part: UIPart; streaming: boolean }) {
  switch (part.type) {
    case 'text':
      // Sanitized Markdown, like the lead's text.
      return part.text ? (
        <div className="subagent-text">
          <MarkdownText text={part.text} streaming={streaming} testId="subagent-text" />
        </div>
      ) : null;
    case 'reasoning':
      return (
        <details className="reasoning">
          <summary>Reasoning</summary>
          <div className="reasoning-text">{part.text}</div>
        </details>
      );
    case 'tool':
      return <ToolCard part={part} nested />;
    default:
      return null;
  }
}
