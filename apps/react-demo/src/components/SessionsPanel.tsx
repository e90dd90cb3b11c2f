import { SESSION_ORIGIN_LABELS, SESSION_STATE_LABELS } from '@lousho/demo-agent';
import type { SessionSummary } from '../sessions.ts';

interface SessionsPanelProps {
  sessions: readonly SessionSummary[];
  /** The session the chat shows. */
  current: string | undefined;
  onOpen: (sessionId: string) => void;
}

/** The server's sessions, newest first, with where each came from; choosing one follows it live. */
export function SessionsPanel({ sessions, current, onOpen }: SessionsPanelProps) {
  return (
    <details className="sessions-panel" data-testid="sessions-panel">
      <summary>Sessions ({sessions.length})</summary>
      <ul className="sessions-list">
        {sessions.map((session) => (
          <li key={session.sessionId}>
            <button
              type="button"
              className="session-item"
              data-testid="session-item"
              data-session-id={session.sessionId}
              data-origin={session.origin}
              aria-current={session.sessionId === current ? 'true' : undefined}
              onClick={() => onOpen(session.sessionId)}
            >
              <span className={`session-origin session-origin-${session.origin}`}>{SESSION_ORIGIN_LABELS[session.origin]}</span>
              <span className="session-id">{session.sessionId}</span>
              <span className="session-state">{SESSION_STATE_LABELS[session.pending ? 'awaiting-approval' : session.status]}</span>
            </button>
          </li>
        ))}
      </ul>
    </details>
  );
}
