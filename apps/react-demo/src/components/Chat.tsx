import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useLoushoAgent } from '@lousho/build-ai-agent/react';
import { attachmentUrl, type AttachmentPart, type UIMessage } from '@lousho/build-ai-agent';
import { approvalShownInCard, demoBrowserTools, IN_PAGE_SESSION_KEY, subagentApprovalPointer, type DemoAgent } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { ApprovalActionsContext } from './ApprovalActions.tsx';
import { ApprovalPanel } from './ApprovalPanel.tsx';
import { AttachmentUrlContext } from './Attachment.tsx';
import { Composer } from './Composer.tsx';
import { QueuedMessages } from './QueuedMessages.tsx';
import { ErrorBanner, type ShownError } from './ErrorBanner.tsx';
import { GuardrailNotice } from './GuardrailNotice.tsx';
import { MessageList } from './MessageList.tsx';
import { QuestionForm } from './QuestionForm.tsx';
import { StatusBar } from './StatusBar.tsx';
import { Suggestions } from './Suggestions.tsx';

export type ChatSource = { agent: DemoAgent } | { url: string; storage: Storage };

/** One conversation with the demo agent: the transcript, the pause panels, the composer and the status line. */
interface ChatProps {
  source: ChatSource;
  mode: Mode;
  /** Offer the suggestion chips (written for the offline demo model: not with a real one). */
  suggestions: boolean;
  onNewChat?: (() => void) | undefined;
  /** Beside the conversation, given this chat (the thread sidebar). */
  sidebar?: ((agent: ReturnType<typeof useLoushoAgent>) => ReactNode) | undefined;
}

export function Chat({ source, mode, suggestions, onNewChat, sidebar }: ChatProps) {
  // Failures of actions that never became a run error (e.g. the server is down) also reach the user.
  const [actionError, setActionError] = useState<ShownError | null>(null);
  const [dismissed, setDismissed] = useState<ShownError | null>(null);

  // Each mode remembers its session id in this tab, so a reload or a mode switch brings the chat back.
  const agent = useLoushoAgent(source, {
    storage: window.sessionStorage,
    ...(mode === 'page' ? { storageKey: IN_PAGE_SESSION_KEY } : {}),
    onError: (error) => setActionError({ code: error.code, message: error.message }),
    // The demo's browser tool (`local_time`): this page runs it and sends the result.
    browserTools: demoBrowserTools,
  });
  const { messages, status, pendingApproval, error, usage, finishReason, guardrail } = agent;
  const busy = status === 'submitted' || status === 'streaming' || status === 'reconnecting';

  const send = useCallback(
    (text: string, attachments: AttachmentPart[] = [], mode?: 'steer') => {
      setActionError(null);
      setDismissed(null);
      const input = attachments.length ? [...(text ? [{ type: 'text' as const, text }] : []), ...attachments] : text;
      void agent.send(input, mode ? { mode } : undefined);
    },
    [agent],
  );

  const upload = useCallback(
    (file: File) =>
      agent.upload(file).catch((error: { code: string; message: string }) => {
        setActionError({ code: error.code, message: error.message });
        throw error;
      }),
    [agent],
  );
  const url = 'url' in source ? source.url : undefined;
  const fileUrl = useCallback((part: AttachmentPart) => attachmentUrl(part, { url, sessionId: agent.sessionId }), [url, agent.sessionId]);

  const retry = (): void => {
    const text = lastUserText(messages);
    if (text !== undefined) send(text);
  };
  const dismiss = (): void => {
    setDismissed(error);
    setActionError(null);
  };
  const newChat = (): void => {
    setActionError(null);
    setDismissed(null);
    agent.reset();
    onNewChat?.();
  };

  const approvalActions = useMemo(
    () => ({ pending: pendingApproval, approve: () => void agent.approve(), reject: () => void agent.reject() }),
    [agent, pendingApproval],
  );

  const shownError = error && error !== dismissed ? error : actionError;
  const empty = messages.length === 0;

  return (
    <>
    {sidebar?.(agent)}
    <main className="chat">
      {/* Focusable, so the conversation can be scrolled with the keyboard. */}
      <div className="chat-scroll" tabIndex={0} role="region" aria-label="Conversation">
        {empty ? (
          <section className="welcome" aria-label="Getting started">
            <h1>Chat with the demo agent</h1>
            <p>
              It can look up the weather, run a slow research task with progress, send an email once you approve it, ask you a question, and work on a tiny code project behind a guardrail.
              Pick a suggestion or write your own message.
            </p>
            {suggestions ? <Suggestions onPick={send} disabled={busy || pendingApproval !== null} /> : null}
          </section>
        ) : (
          <ApprovalActionsContext.Provider value={approvalActions}>
            <AttachmentUrlContext.Provider value={fileUrl}>
              <MessageList messages={messages} busy={busy} status={status} interrupted={finishReason === 'interrupted' ? mode : undefined} />
            </AttachmentUrlContext.Provider>
          </ApprovalActionsContext.Provider>
        )}
      </div>

      <div className="dock">
        {guardrail ? <GuardrailNotice guardrail={guardrail} /> : null}
        {shownError ? <ErrorBanner error={shownError} onRetry={lastUserText(messages) !== undefined ? retry : undefined} onDismiss={dismiss} /> : null}
        {pendingApproval && approvalShownInCard(pendingApproval) ? (
          // A sub-agent's call: its card holds the decision; shown once, the dock points there.
          <p className="run-note" data-testid="approval-pointer" role="status">
            {subagentApprovalPointer(pendingApproval)}
          </p>
        ) : pendingApproval?.kind === 'tool' ? (
          <ApprovalPanel
            key={pendingApproval.approvalId}
            approval={pendingApproval}
            onApprove={(note) => void agent.approve(note)}
            onReject={(note) => void agent.reject(note)}
          />
        ) : pendingApproval?.kind === 'question' ? (
          <QuestionForm key={pendingApproval.approvalId} approval={pendingApproval} onAnswer={(text) => void agent.answer(text)} />
        ) : (
          <>
            {suggestions && !empty && !busy ? <Suggestions compact onPick={send} disabled={busy} /> : null}
            <QueuedMessages queued={agent.queued} onRemove={(id) => void agent.unqueue(id)} />
            <Composer busy={busy} onSend={send} onStop={() => void agent.stop()} onUpload={upload} />
          </>
        )}
        <StatusBar status={status} interrupted={finishReason === 'interrupted'} usage={usage} sessionId={agent.sessionId} mode={mode} onNewChat={empty ? undefined : newChat} />
      </div>
    </main>
    </>
  );
}

/** The text of the latest user message, to send again on retry. */
function lastUserText(messages: readonly UIMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') continue;
    const text = message.parts
      .map((part) => (part.type === 'text' ? part.text : ''))
      .join('')
      .trim();
    if (text) return text;
  }
  return undefined;
}
