import { onScopeDispose, ref, watch, type Ref } from 'vue';

/** One row of the demo server's `GET /api/sessions`. */
export interface SessionSummary {
  sessionId: string;
  origin: 'chat' | 'webhook' | 'cron' | 'slack';
  status: 'idle' | 'running' | 'awaiting-approval' | 'interrupted';
  pending: 'tool' | 'question' | null;
  createdAt: number;
}

const POLL_MS = 1500;

/** The server's sessions, newest first, polled while `enabled()` (HTTP mode): trigger runs appear on their own. */
export function useSessionList(enabled: () => boolean): Ref<SessionSummary[]> {
  const sessions = ref<SessionSummary[]>([]);
  let stop: (() => void) | undefined;
  watch(
    enabled,
    (on) => {
      stop?.();
      stop = undefined;
      if (!on) return;
      let stopped = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const poll = async (): Promise<void> => {
        try {
          const response = await fetch('/api/sessions', { headers: { accept: 'application/json' } });
          if (response.ok && !stopped) sessions.value = ((await response.json()) as { sessions: SessionSummary[] }).sessions;
        } catch {
          // The server is away: keep the last list; the model notice already says so.
        }
        if (!stopped) timer = setTimeout(() => void poll(), POLL_MS);
      };
      void poll();
      stop = () => {
        stopped = true;
        clearTimeout(timer);
      };
    },
    { immediate: true },
  );
  onScopeDispose(() => stop?.());
  return sessions;
}
