import { ERROR_CODES, SDKError, type AppendFence, type CheckpointStore, type StoredCheckpoint } from '@lousho/core';

export function sessionBusyError(sessionId: string, elsewhere = false): SDKError {
  return new SDKError(
    ERROR_CODES.LOUSHO_SESSION_BUSY,
    elsewhere ? `Session '${sessionId}' is running a flow (or a turn) in another process.` : `Session '${sessionId}' is already running.`,
    { hint: 'Wait for the run to finish, or stop it first; after a crash, resume() takes the session over.' },
  );
}

export function randomId(prefix: string): string {
  return `${prefix}_${globalThis.crypto.randomUUID().replace(/-/g, '').slice(0, 20)}`;
}

/**
 * A flow leg's lease on its session (the agent stores' lease model): taken with the stored
 * checkpoint in one step, renewed every third of `leaseMs` while the leg runs, given up at its
 * end. A leg that lost it (a refused renewal or write) stops writing.
 */
export class SessionLease {
  readonly holder = randomId('lease');
  readonly sessionId: string;
  readonly #store: CheckpointStore;
  #held = false;
  #lost = false;
  #heartbeat: ReturnType<typeof setInterval> | undefined;

  constructor(store: CheckpointStore, sessionId: string) {
    this.#store = store;
    this.sessionId = sessionId;
  }

  get held(): boolean {
    return this.#held;
  }

  get lost(): boolean {
    return this.#lost;
  }

  /** An append the store failed (not for the lease): the leg stores nothing more. */
  get failure(): { error: unknown } | undefined {
    return this.#failure;
  }

  #failure: { error: unknown } | undefined;

  /** The fence for the leg's event appends: the store refuses them once the lease is gone. */
  readonly fence: AppendFence = {
    holder: this.holder,
    onLost: (): void => void (this.#lost = true),
    onFailed: (error: unknown): void => void (this.#failure ??= { error }),
  };

  /** Takes the lease (or throws `LOUSHO_SESSION_BUSY`); `force` takes it over from a crashed holder. */
  async acquire(force = false): Promise<StoredCheckpoint | undefined> {
    const lease = await this.#store.acquire(this.sessionId, this.holder, force ? { force: true } : undefined);
    if (!lease.acquired) throw sessionBusyError(this.sessionId, true);
    this.#held = true;
    const every = Math.max(10, Math.floor(this.#store.leaseMs / 3));
    this.#heartbeat = setInterval(() => void this.#renew(), every);
    (this.#heartbeat as { unref?: () => void }).unref?.();
    return lease.checkpoint;
  }

  async #renew(): Promise<void> {
    try {
      if (!(await this.#store.renew(this.sessionId, this.holder))) this.#lost = true;
    } catch {
      // Retried at the next beat; a write after expiry is refused anyway.
    }
  }

  markLost(): void {
    this.#lost = true;
  }

  /** Stops the heartbeat and gives the lease up. Never throws: it runs out by itself otherwise. */
  async release(): Promise<void> {
    if (this.#heartbeat !== undefined) clearInterval(this.#heartbeat);
    this.#heartbeat = undefined;
    if (!this.#held) return;
    this.#held = false;
    try {
      await this.#store.release(this.sessionId, this.holder);
    } catch {
      // Expiry frees it.
    }
  }
}
