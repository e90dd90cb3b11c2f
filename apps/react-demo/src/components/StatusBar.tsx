import { formatUsage, type AgentUIStatus, type RunUsage } from '@lousho/build-ai-agent';
import type { Mode } from '../mode.ts';
import { inPageChatKept } from '../sources.ts';

const STATUS_LABELS: Readonly<Record<AgentUIStatus, string>> = {
  idle: 'Ready',
  submitted: 'Thinking…',
  streaming: 'Replying…',
  'awaiting-approval': 'Waiting for you',
  error: 'Failed',
  aborted: 'Stopped',
};

interface StatusBarProps {
  status: AgentUIStatus;
  usage: RunUsage | null;
  sessionId: string | undefined;
  mode: Mode;
  onNewChat: (() => void) | undefined;
}

/** The run's status, its token usage, and a way to start over. */
export function StatusBar({ status, usage, sessionId, mode, onNewChat }: StatusBarProps) {
  return (
    <div className="status-bar">
      <span className={`status-pill status-${status}`} data-testid="status" data-status={status}>
        <span className="status-dot" aria-hidden="true" />
        {STATUS_LABELS[status]}
      </span>
      {usage ? (
        <span className="usage" data-testid="usage" title="Token usage of the latest run">
          {formatUsage(usage)}
        </span>
      ) : null}
      <span className="status-spacer" />
      {sessionId ? (
        <span className="session-id" title={
            mode === 'http'
              ? 'Kept on the server: a reload restores this chat'
              : inPageChatKept()
                ? 'Kept in this browser (IndexedDB): a reload restores this chat'
                : 'This browser keeps no site data: this chat ends with the page'
          }>
          session {sessionId.slice(0, 8)}
        </span>
      ) : null}
      {onNewChat ? (
        <button type="button" className="button button-small button-ghost" onClick={onNewChat}>
          New chat
        </button>
      ) : null}
    </div>
  );
}
