import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { SessionPage, SessionRecord, SessionStatus } from '@lousho/protocol';
import { checkPageLimit, checkSessionTitle, deleteSession, sessionNotFoundError } from '@lousho/store-kit';
import type { AgentStores } from './agent-stores.js';
import { leaseStateOf } from './lease-state.js';
import { sessionBusyError } from './session-errors.js';

/** `agent.sessions.list / rename / delete`: the thread list over the agent's stores. */
export class SessionThreads {
  constructor(
    private readonly stores: AgentStores,
    /** Forgets this process's copy of a deleted session; false when a turn of it runs here. */
    private readonly forgetLocal: (id: string) => boolean,
    /** The status of a session this process has a copy of (it knows best: it may be running it). */
    private readonly localStatus: (id: string) => SessionStatus | undefined,
  ) {}

  async list(options: { owner?: string; cursor?: string; limit?: number } = {}): Promise<SessionPage> {
    const { sessionStore } = this.stores;
    if (!sessionStore.listPage) throw unsupported('listPage');
    const limit = checkPageLimit(options.limit);
    const page = await sessionStore.listPage({ limit, ...(options.owner !== undefined ? { owner: options.owner } : {}), ...(options.cursor !== undefined ? { cursor: options.cursor } : {}) });
    return { ...page, sessions: await Promise.all(page.sessions.map((record) => this.#withLiveStatus(record))) };
  }

  async rename(id: string, title: string, options: { owner?: string } = {}): Promise<void> {
    const checked = checkSessionTitle(title);
    const { sessionStore } = this.stores;
    if (!sessionStore.rename) throw unsupported('rename');
    await this.#owned(id, options.owner);
    await sessionStore.rename(id, checked);
  }

  async delete(id: string, options: { owner?: string } = {}): Promise<void> {
    await this.#owned(id, options.owner);
    const lease = await leaseStateOf(this.stores.checkpointStore, id);
    if (lease?.leased) throw sessionBusyError(id, true);
    if (!this.forgetLocal(id)) throw sessionBusyError(id);
    const { sessionStore: sessions, checkpointStore: checkpoints, approvalStore: approvals } = this.stores;
    await deleteSession({ sessions, checkpoints, approvals }, id);
    // Its attachments last: a session that could not be deleted keeps the files its messages name.
    await this.stores.files?.deleteSession(id);
  }

  async #owned(id: string, owner: string | undefined): Promise<SessionRecord> {
    const record = await this.stores.sessionStore.get(id);
    if (!record || (owner !== undefined && record.owner !== owner)) throw sessionNotFoundError(id);
    return record;
  }

  /**
   * Where the session stands now: this process's copy when it has one, else the latest run's state
   * in the store (paused: awaiting approval; running: running while someone holds the lease,
   * interrupted when its process died). The record's own status is not kept up to date by runs.
   */
  async #withLiveStatus(record: SessionRecord): Promise<SessionRecord> {
    const local = this.localStatus(record.id);
    if (local !== undefined) return { ...record, status: local };
    const lease = await leaseStateOf(this.stores.checkpointStore, record.id);
    const status: SessionStatus =
      lease?.run === 'paused' ? 'awaiting-approval' : lease?.run === 'running' ? (lease.leased ? 'running' : 'interrupted') : record.status === 'running' ? 'interrupted' : record.status;
    return { ...record, status };
  }
}

function unsupported(method: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_SESSION_LIST_UNSUPPORTED, `The agent's session store has no ${method}(): it cannot list or rename threads.`, {
    hint: 'Use memoryStore(), SqliteStore, PostgresStore or IndexedDbStore, or add listPage and rename to your store.',
  });
}
