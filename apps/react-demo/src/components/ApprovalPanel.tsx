import { useState } from 'react';
import type { PendingApprovalInfo } from '@lousho/build-ai-agent';
import { approvalNotePlaceholder } from '@lousho/demo-agent';
import { Value } from './Value.tsx';

interface ApprovalPanelProps {
  approval: PendingApprovalInfo;
  onApprove: (note?: string) => void;
  onReject: (note?: string) => void;
  /** What is asked, under the title (default: about a tool call of the agent). */
  hint?: string;
}

/** The run is paused on a tool call: show what it would do, and let the person approve or reject it. */
export function ApprovalPanel({ approval, onApprove, onReject, hint = 'The agent wants to run this tool. Nothing happens until you decide.' }: ApprovalPanelProps) {
  const [note, setNote] = useState('');
  const [sent, setSent] = useState(false);
  const trimmed = note.trim();

  const decide = (approve: boolean): void => {
    setSent(true);
    if (approve) onApprove(trimmed || undefined);
    else onReject(trimmed || undefined);
  };

  return (
    <section className="pause-panel approval-panel" data-testid="approval-panel" aria-labelledby="approval-title">
      <header className="pause-header">
        <span className="pause-icon" aria-hidden="true">
          !
        </span>
        <div>
          <h2 id="approval-title">
            Approve <span className="pause-tool">{approval.displayName}</span>?
          </h2>
          <p className="pause-hint">{approval.subagent ? `The ${approval.subagent.name} sub-agent wants to run this tool. Nothing happens until you decide.` : hint}</p>
        </div>
      </header>
      {/* Long arguments scroll inside the panel: focusable, so the keyboard reaches all of them. */}
      <div className="approval-args" data-testid="approval-args" tabIndex={0} role="region" aria-label="Arguments">
        <Value value={approval.args} />
      </div>
      <label className="field-label" htmlFor="approval-note">
        Note for the agent <span className="optional">(optional, e.g. why you reject it)</span>
      </label>
      <textarea
        id="approval-note"
        className="note-input"
        rows={2}
        value={note}
        onChange={(event) => setNote(event.target.value)}
        placeholder={approvalNotePlaceholder(approval.toolName)}
      />
      <div className="pause-actions">
        <button type="button" className="button button-danger" disabled={sent} onClick={() => decide(false)}>
          Reject
        </button>
        <button type="button" className="button button-primary" disabled={sent} onClick={() => decide(true)} autoFocus>
          Approve
        </button>
      </div>
    </section>
  );
}
