function isPromise(value: unknown): value is Promise<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/**
 * Runs `fn` one call at a time: a call made while an earlier one is still being written waits for
 * it. Calls on a synchronous path stay synchronous. Checkpoints need this once sub-agents write
 * the run's state from calls that run in parallel: two deltas computed at once would overlap.
 */
export function serialized<A>(fn: (arg: A) => void | Promise<void>): (arg: A) => void | Promise<void> {
  let tail: Promise<void> | undefined;
  return (arg) => {
    const answer = tail ? tail.then(() => fn(arg)) : fn(arg);
    if (!isPromise(answer)) return answer;
    const settled: Promise<void> = answer.then(
      () => {},
      () => {},
    );
    tail = settled;
    void settled.then(() => {
      if (tail === settled) tail = undefined;
    });
    return answer;
  };
}
