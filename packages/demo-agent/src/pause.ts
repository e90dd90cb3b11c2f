import { sleep, throwIfAborted } from '@lousho/build-ai-agent';

/** Waits `ms` (no timer at all for 0, so tests with a zero delay scale stay fast); rejects with an AbortError on abort. */
export async function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms > 0) await sleep(ms, signal);
  else throwIfAborted(signal);
}
