/**
 * Retries `check` until it stops throwing (or `timeoutMs` runs out, then throws its last error).
 * Frameworks apply updates on their own schedule (React after a microtask or a frame, Vue on its
 * next tick): the suite asserts on what the binding shows once it has caught up.
 */
export async function eventually<T>(check: () => T, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Lets a few macrotasks pass (a framework's scheduled work, the client's deferred detach). */
export async function settle(rounds = 3): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}
