import { pollSessionList, type SessionSummary } from '@lousho/demo-agent';
import { onScopeDispose, ref, watch, type Ref } from 'vue';

export type { SessionSummary };

/** The server's sessions, newest first, polled while `enabled()` (HTTP mode): trigger runs appear on their own. */
export function useSessionList(enabled: () => boolean): Ref<SessionSummary[]> {
  const sessions = ref<SessionSummary[]>([]);
  let stop: (() => void) | undefined;
  watch(
    enabled,
    (on) => {
      stop?.();
      stop = on ? pollSessionList((list) => (sessions.value = list)) : undefined;
    },
    { immediate: true },
  );
  onScopeDispose(() => stop?.());
  return sessions;
}
