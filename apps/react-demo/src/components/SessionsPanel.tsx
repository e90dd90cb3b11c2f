import { useRef } from 'react';
import { sessionItemAttributes, sessionItemLabels } from '@lousho/demo-agent';
import type { SessionSummary } from '../sessions.ts';

interface SessionsPanelProps {
  sessions: readonly SessionSummary[];
  /** The session the chat shows. */
  current: string | undefined;
  onOpen: (sessionId: string) => void;
}

/** The server's sessions, newest first, with where each came from; choosing one follows it live (and closes the list, so the chat shows). */
export function SessionsPanel({ sessions, current, onOpen }: SessionsPanelProps) {
  const panel = useRef<HTMLDetailsElement>(null);
  const open = (sessionId: string): void => {
    if (panel.current) panel.current.open = false;
    onOpen(sessionId);
  };
  return (
    <details ref={panel} className="sessions-panel" data-testid="sessions-panel">
      <summary>Sessions ({sessions.length})</summary>
      <ul className="sessions-list">
        {sessions.map((session) => {
          const labels = sessionItemLabels(session);
          return (
            <li key={session.sessionId}>
              <button type="button" className="session-item" {...sessionItemAttributes(session, current)} onClick={() => open(session.sessionId)}>
                <span className={`session-origin session-origin-${session.origin}`}>{labels.origin}</span>
                <span className="session-title">{labels.title}</span>
                <span className="session-state">{labels.state}</span>
              </button>
            </li>
          );
        })}
      </ul>
    </details>
  );
}
