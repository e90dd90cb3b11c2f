import { formatUsage, type AgentUIStatus, type RunUsage } from '@lousho/build-ai-agent';
import { INTERRUPTED_HINT, INTERRUPTED_LABEL, RUN_STATUS_LABELS } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { inPageChatKept } from '../sources.ts';

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
  const label = status === 'idle' && interrupted ? INTERRUPTED_LABEL : RUN_STATUS_LABELS[status];
  return (
    <div className="status-bar">
      <span className={`status-pill status-${status}`} data-testid="status" data-status={status} title={label === INTERRUPTED_LABEL ? INTERRUPTED_HINT : undefined}>
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
