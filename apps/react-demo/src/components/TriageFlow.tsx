import { useState } from 'react';
import { useLoushoAgent } from '@lousho/build-ai-agent/react';
import { flowInputText, flowNodesOf, flowReplyText, IN_PAGE_TRIAGE_SESSION_KEY, triageSuggestions, type TriageAgent } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { ApprovalPanel } from './ApprovalPanel.tsx';
import { ErrorBanner, type ShownError } from './ErrorBanner.tsx';
import { FlowNodeCard } from './FlowNodeCard.tsx';
import { StatusBar } from './StatusBar.tsx';

export type TriageSource = { agent: TriageAgent } | { url: string; storage: Storage; storageKey: string };

/**
 * The triage flow: paste a support message, watch each node (classify, route, draft, review, send)
 * as a card, and approve or reject the drafted reply. The flow is served like an agent, so the same
 * hook shows it.
 */
export function TriageFlow({ source, mode }: { source: TriageSource; mode: Mode }) {
  const [text, setText] = useState('');
  const [actionError, setActionError] = useState<ShownError | null>(null);
  // In the page the run's session id is kept in this tab too (over HTTP the source says where), so a
  // reload, a switch to the chat or a mode switch comes back to the same run.
  const flow = useLoushoAgent(source, {
    storage: window.sessionStorage,
    storageKey: IN_PAGE_TRIAGE_SESSION_KEY,
    onError: (error) => setActionError({ code: error.code, message: error.message }),
  });
  const { messages, status, pendingApproval, error, usage, finishReason } = flow;
  const busy = status === 'submitted' || status === 'streaming';
  const nodes = flowNodesOf(messages);
  const customer = flowInputText(messages);
  const outcome = flowReplyText(messages);
  const shownError = error ?? actionError;

  const run = (message: string): void => {
    const trimmed = message.trim();
    if (!trimmed || busy) return;
    setActionError(null);
    setText('');
    void flow.send(trimmed);
  };

  return (
    <main className="chat triage">
      {/* Focusable, so the flow can be scrolled with the keyboard (axe: scrollable-region-focusable). */}
      <div className="chat-scroll" tabIndex={0} role="region" aria-label="Triage run">
        <section className={customer ? 'welcome is-compact' : 'welcome'} aria-label="The triage flow">
          <h1>Triage a support message</h1>
          <p>
            A flow of steps: an agent classifies the message, a branch picks the matching writer, an agent drafts the reply, you approve it, and it
            is sent (to an in-memory outbox). Each step shows as a card while it runs.
          </p>
        </section>
        {customer ? (
          <blockquote className="triage-message" data-testid="triage-message">
            {customer}
          </blockquote>
        ) : null}
        {nodes.length > 0 ? (
          <ol className="flow-row" data-testid="flow-row" aria-label="Flow steps">
            {nodes.map((part) => (
              <li key={part.toolCallId} className="flow-step">
                <FlowNodeCard part={part} />
              </li>
            ))}
          </ol>
        ) : null}
        {outcome ? (
          <p className="triage-outcome" data-testid="triage-outcome">
            {outcome}
          </p>
        ) : null}
      </div>

      <div className="dock">
        {shownError ? <ErrorBanner error={shownError} onRetry={undefined} onDismiss={() => setActionError(null)} /> : null}
        {pendingApproval ? (
          <ApprovalPanel
            key={pendingApproval.approvalId}
            approval={pendingApproval}
            onApprove={(note) => void flow.approve(note)}
            onReject={(note) => void flow.reject(note)}
            hint="The flow waits here for you: the reply is sent only once you approve it."
          />
        ) : (
          <>
            <div className="suggestions is-compact" aria-label="Example messages">
              {triageSuggestions.map((suggestion) => (
                <button key={suggestion.label} type="button" className="chip" disabled={busy} title={suggestion.prompt} onClick={() => run(suggestion.prompt)}>
                  {suggestion.label}
                </button>
              ))}
            </div>
            <form
              className="composer"
              onSubmit={(event) => {
                event.preventDefault();
                run(text);
              }}
            >
              <label className="visually-hidden" htmlFor="triage-input">
                Customer message
              </label>
              <textarea id="triage-input" rows={1} value={text} placeholder="Paste a customer's support message…" onChange={(event) => setText(event.target.value)} />
              {busy ? (
                <button type="button" className="button button-stop" onClick={() => void flow.stop()}>
                  <span className="stop-square" aria-hidden="true" />
                  Stop
                </button>
              ) : (
                <button type="submit" className="button button-primary" data-testid="triage-run" disabled={text.trim() === ''}>
                  Run triage
                </button>
              )}
            </form>
          </>
        )}
        <StatusBar status={status} interrupted={finishReason === 'interrupted'} usage={usage} sessionId={flow.sessionId} mode={mode} onNewChat={messages.length === 0 ? undefined : () => flow.reset()} />
      </div>
    </main>
  );
}
