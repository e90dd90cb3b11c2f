// setTimeout fires at once for delays over 2^31-1 ms (about 24.8 days): longer waits are chained.
const MAX_DELAY = 2_147_483_647;

/** Calls `fire` at `at` (ms since the epoch, by `Date.now()`); returns the cancel function. */
export function timerAt(at: number, fire: () => void): () => void {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const arm = (): void => {
    const wait = at - Date.now();
    if (wait <= 0) {
      handle = undefined;
      fire();
      return;
    }
    // Re-checked on wake-up: a timer may also come back early after the clock was changed.
    handle = setTimeout(arm, Math.min(wait, MAX_DELAY));
  };
  arm();
  return () => {
    if (handle !== undefined) clearTimeout(handle);
    handle = undefined;
  };
}
