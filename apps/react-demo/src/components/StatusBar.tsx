import { formatUsage, type AgentUIStatus, type RunUsage } from '@lousho/build-ai-agent';
import type { Mode } from '../mode.ts';
import { inPageChatKept } from '../sources.ts';

const STATUS_LABELS: Readonly<Record<AgentUIStatus, string>> = {
  idle: 'Ready',
  submitted: 'Thinking…',
  streaming: 'Replying…',
  reconnecting: 'Reconnecting…',
  'awaiting-approval': 'Waiting for you',
  error: 'Failed',
  aborted: 'Stopped',
};

/** After `run.interrupted`: the reply shows what was saved, and goes on with the next message. */
const INTERRUPTED = 'Interrupted';
const INTERRUPTED_HINT = 'The server stopped during this reply. It shows what was saved; your next message lets it go on from there.';

interface StatusBarProps {
  status: AgentUIStatus;
  /** The last reply was cut by a server that stopped (`finishReason: 'interrupted'`). */
  interrupted: boolean;
  usage: RunUsage | null;
  sessionId: string | undefined;
  mode: Mode;
  onNewChat: (() => void) | undefined;
}

/** The run's status, its token usage, and a way to start over. */
export function StatusBar({ status, interrupted, usage, sessionId, mode, onNewChat }: StatusBarProps) {
  const label = status === 'idle' && interrupted ? INTERRUPTED : STATUS_LABELS[status];
  return (
    <div className="status-bar">
      <span className={`status-pill status-${status}`} data-testid="status" data-status={status} title={label === INTERRUPTED ? INTERRUPTED_HINT : undefined}>
        <span className="status-dot" aria-hidden="true" />
        {label}
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
