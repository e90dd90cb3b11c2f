import { formatUsage, type AgentUIStatus, type RunUsage } from '@lousho/build-ai-agent';
import { INTERRUPTED_LABEL, interruptedHint, RUN_STATUS_LABELS, shortSessionId } from '@lousho/demo-agent';
import type { Mode } from '../mode.ts';
import { inPageChatKept } from '../sources.ts';

interface StatusBarProps {
  status: AgentUIStatus;
  /** The last reply was cut by a server that stopped, or in the page by a reload (`finishReason: 'interrupted'`). */
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
      <span className={`status-pill status-${status}`} data-testid="status" data-status={status} title={label === INTERRUPTED_LABEL ? interruptedHint(mode) : undefined}>
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
          session {shortSessionId(sessionId)}
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
