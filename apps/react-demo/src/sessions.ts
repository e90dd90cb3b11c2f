import { pollSessionList, type SessionSummary } from '@lousho/demo-agent';
import { useEffect, useState } from 'react';

export type { SessionSummary };

/** The server's sessions, newest first, polled while `enabled` (HTTP mode): trigger runs appear on their own. */
export function useSessionList(enabled: boolean): SessionSummary[] {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  useEffect(() => (enabled ? pollSessionList(setSessions) : undefined), [enabled]);
  return sessions;
}
