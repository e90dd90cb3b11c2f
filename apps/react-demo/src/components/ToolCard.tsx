import { useState } from 'react';
import type { UIToolPart, UIToolState } from '@lousho/build-ai-agent';
import { BROWSER_TOOL_LABELS, cutCardNote, questionOf, readProgress, safeHref } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { Value } from './Value.tsx';
import { useApprovalActions } from './ApprovalActions.tsx';
import { SubagentCard } from './SubagentCard.tsx';

const STATE_LABELS: Readonly<Record<UIToolState, string>> = {
  'input-streaming': 'Preparing',
  running: 'Running',
  'awaiting-approval': 'Needs approval',
  'awaiting-client': BROWSER_TOOL_LABELS.badge,
  done: 'Done',
  error: 'Failed',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

/**
 * One tool call: what was called with which arguments, where it is, and what came back. A
 * delegation shows its sub-agent's work inside; a sub-agent's call (`nested`) that waits for a
 * person carries the approve / reject buttons itself, since the dock is far from it.
 */
export function ToolCard({ part, nested = false, cut }: { part: UIToolPart; nested?: boolean; cut?: Mode | undefined }) {
  const progress = readProgress(part.progress);
  const showProgress = progress !== undefined && (part.state === 'running' || part.state === 'cancelled');
  const hasArgs = part.args !== undefined && !(typeof part.args === 'object' && part.args !== null && Object.keys(part.args).length === 0);

  return (
    <article className={`tool-card tool-${part.state}`} data-testid="tool-card" data-tool={part.toolName} data-state={part.state}>
      <header className="tool-header">
        <span className="tool-icon" aria-hidden="true">
          {(part.displayName || part.toolName).charAt(0).toUpperCase()}
        </span>
        <span className="tool-title">
          <span className="tool-name">{part.displayName || part.toolName}</span>
          <code className="tool-id">{part.toolName}</code>
        </span>
        <span className={`badge badge-${part.state}`} data-testid="tool-state">
          {part.state === 'running' || part.state === 'input-streaming' ? <span className="spinner" aria-hidden="true" /> : null}
          {part.state === 'awaiting-approval' && part.approval?.kind === 'question' ? 'Waiting for answer' : STATE_LABELS[part.state]}
        </span>
      </header>

      {part.state === 'awaiting-approval' && nested && part.approval?.kind !== 'question' ? (
        <NestedApproval part={part} />
      ) : part.state === 'awaiting-approval' ? (
        <section className="tool-section tool-waiting">
          {part.approval?.kind === 'question'
            ? `Asks: ${part.approval.question ?? questionOf(part.args) ?? 'a question'} (answer below)`
            : 'Waiting for your decision below.'}
        </section>
      ) : part.state === 'awaiting-client' ? (
        <section className="tool-section tool-waiting" data-testid="tool-browser-waiting">
          {BROWSER_TOOL_LABELS.waiting}
        </section>
      ) : hasArgs ? (
        <section className="tool-section" aria-label="Arguments">
          <h4>Arguments</h4>
          <Value value={part.args} />
        </section>
      ) : part.state === 'input-streaming' && part.argsText ? (
        <section className="tool-section" aria-label="Arguments">
          <h4>Arguments</h4>
          <code className="v-json">{part.argsText}</code>
        </section>
      ) : null}

      {showProgress ? (
        <section className="tool-progress" data-testid="tool-progress" aria-label="Progress">
          {progress.fraction !== undefined ? (
            <div
              className="progress-track"
              role="progressbar"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.round(progress.fraction * 100)}
              aria-label={progress.message ?? 'Progress'}
            >
              <div className="progress-fill" style={{ width: `${Math.round(progress.fraction * 100)}%` }} />
            </div>
          ) : null}
          <div className="progress-text">
            {progress.counter ? <span className="progress-counter">{progress.counter}</span> : null}
            {progress.message ? <span>{progress.message}</span> : null}
            {part.state === 'cancelled' ? <span className="progress-stopped">stopped here</span> : null}
          </div>
        </section>
      ) : null}

      {part.approval?.approved !== undefined || part.approval?.answer !== undefined ? (
        <section className="tool-section tool-decision" data-testid="tool-decision">
          {part.approval.kind === 'question' ? (
            <>
              <h4>Your answer</h4>
              <span className="v-str">{part.approval.answer}</span>
            </>
          ) : part.approval.kind === 'client' ? (
            <h4>{BROWSER_TOOL_LABELS.ran}</h4>
          ) : (
            <>
              <h4>{part.approval.approved ? 'Approved' : 'Rejected'}</h4>
              {part.approval.note ? <span className="v-str">Note: {part.approval.note}</span> : <span className="v-null">no note</span>}
            </>
          )}
        </section>
      ) : null}

      {part.subagent ? <SubagentCard subagent={part.subagent} /> : null}

      {/* A sub-agent's result is its last words, already shown in its card. */}
      {part.state === 'done' && part.result !== undefined && !part.subagent ? (
        <section className="tool-section" aria-label="Result" data-testid="tool-result">
          <h4>Result</h4>
          <Value value={part.result} />
        </section>
      ) : null}

      {/* Cut by a reload or a stopped server (`cut`): not a Stop, which gives the call an error. */}
      {part.state === 'cancelled' && !part.error && cut ? (
        <section className="tool-section tool-error" data-testid="tool-cut">
          <span className="v-str">{cutCardNote(cut)}</span>
        </section>
      ) : null}

      {part.error && part.state !== 'rejected' ? (
        <section className="tool-section tool-error" data-testid="tool-error">
          <h4>{part.state === 'cancelled' ? 'Stopped' : 'Error'}</h4>
          <span className="v-str">{part.error.message}</span>
        </section>
      ) : null}

      {part.artifacts && part.artifacts.length > 0 ? (
        <section className="tool-section" aria-label="Artifacts" data-testid="tool-artifacts">
          <h4>Artifacts</h4>
          <ul className="artifacts">
            {part.artifacts.map((artifact, index) => (
              <li key={index} className="artifact">
                <div className="artifact-title">
                  {artifact.title ?? artifact.type}
                  <span className="artifact-type">{artifact.type}</span>
                </div>
                <ArtifactData data={artifact.data} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </article>
  );
}

/** A sub-agent's call waiting for a person: what it would do, and the run's approve / reject. */
function NestedApproval({ part }: { part: UIToolPart }) {
  const { pending, approve, reject } = useApprovalActions();
  const [sent, setSent] = useState(false);
  const mine = pending?.toolCallId === part.toolCallId;
  const decide = (approved: boolean): void => {
    setSent(true);
    if (approved) approve();
    else reject();
  };
  return (
    <section className="tool-section nested-approval" aria-label={`Approve ${part.displayName || part.toolName}?`} data-testid="nested-approval">
      <h4>Arguments</h4>
      <Value value={part.args} />
      <p className="nested-approval-hint">The sub-agent waits for your decision.</p>
      <div className="pause-actions">
        <button type="button" className="button button-danger" disabled={!mine || sent} onClick={() => decide(false)}>
          Reject
        </button>
        <button type="button" className="button button-primary" disabled={!mine || sent} onClick={() => decide(true)}>
          Approve
        </button>
      </div>
    </section>
  );
}

/** A list of `{ title, url }` (like the research sources) as links; anything else as a value. */
function ArtifactData({ data }: { data: unknown }) {
  if (Array.isArray(data) && data.every((item) => typeof item === 'object' && item !== null && 'url' in item)) {
    return (
      <ul className="artifact-links">
        {(data as { title?: unknown; url: unknown }[]).map((item, index) => {
          const url = typeof item.url === 'string' ? item.url : '';
          const title = typeof item.title === 'string' ? item.title : url;
          const href = safeHref(url);
          return (
            <li key={index}>
              {href ? (
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {title}
                </a>
              ) : (
                <span>{title}</span>
              )}
              <span className="artifact-url">{url}</span>
            </li>
          );
        })}
      </ul>
    );
  }
  return <Value value={data} />;
}
