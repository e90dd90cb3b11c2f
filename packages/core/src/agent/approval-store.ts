import type { PendingApprovalInfo } from '../events/types.js';
import type { RunSnapshot } from './run-snapshot.js';

/** Where an approval stands: `pending` (waiting for a person), `resolving` (claimed, its continuation starting) or `resolved`. */
export type ApprovalStatus = 'pending' | 'resolving' | 'resolved';

/** A paused call and the run it belongs to, as an approval store keeps it. */
export interface ApprovalRecord extends PendingApprovalInfo {
  sessionId: string;
  runId: string;
  status: ApprovalStatus;
  createdAt: number;
  /** The paused run: enough to continue it, even from another process. */
  snapshot: RunSnapshot;
  decision?: { approved: boolean; note?: string; answer?: string };
}

/**
 * Where paused approvals live. `claim()` is the one atomic step: it moves a record from `pending`
 * to `resolving` and returns it, so two concurrent resolutions run the tool once.
 */
export interface ApprovalStore {
  /** Stores (or replaces) the record of a paused call. */
  save(record: ApprovalRecord): Promise<void> | void;
  /** The record with this approval id, or undefined. */
  get(id: string): Promise<ApprovalRecord | undefined> | ApprovalRecord | undefined;
  /** Records, oldest first, optionally of one session and / or one status. */
  list(filter?: { sessionId?: string; status?: ApprovalStatus }): Promise<ApprovalRecord[]> | ApprovalRecord[];
  /** Atomically take a pending record; `undefined` when it is unknown or not pending. */
  claim(id: string): Promise<ApprovalRecord | undefined> | ApprovalRecord | undefined;
  /** Mark a claimed record resolved with its decision. */
  complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> | void;
  /** Put a claimed record back to pending (the continuation could not start). */
  release(id: string): Promise<void> | void;
}

/** Process-local approval store; the default of `createAgent()` agents. */
export class InMemoryApprovalStore implements ApprovalStore {
  readonly #records = new Map<string, ApprovalRecord>();

  /** Stores (or replaces) the record of a paused call. */
  save(record: ApprovalRecord): void {
    this.#records.set(record.approvalId, structuredClone(record));
  }

  /** The record with this approval id, or undefined. */
  get(id: string): ApprovalRecord | undefined {
    const record = this.#records.get(id);
    return record && structuredClone(record);
  }

  /** Records, oldest first, optionally of one session and / or one status. */
  list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): ApprovalRecord[] {
    const out: ApprovalRecord[] = [];
    for (const record of this.#records.values()) {
      if (filter.sessionId !== undefined && record.sessionId !== filter.sessionId) continue;
      if (filter.status !== undefined && record.status !== filter.status) continue;
      out.push(structuredClone(record));
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  claim(id: string): ApprovalRecord | undefined {
    const record = this.#records.get(id);
    if (!record || record.status !== 'pending') return undefined;
    record.status = 'resolving';
    return structuredClone(record);
  }

  complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): void {
    const record = this.#records.get(id);
    if (!record) return;
    record.status = 'resolved';
    record.decision = { ...decision };
  }

  release(id: string): void {
    const record = this.#records.get(id);
    if (record && record.status === 'resolving') record.status = 'pending';
  }

  /** True while the session has an approval not yet decided (pending, or being decided). */
  hasOpen(sessionId: string): boolean {
    for (const record of this.#records.values()) if (record.sessionId === sessionId && record.status !== 'resolved') return true;
    return false;
  }

  /** Forgets every approval of the session (a store that forgets the session calls it). */
  deleteSession(sessionId: string): void {
    for (const [id, record] of this.#records) if (record.sessionId === sessionId) this.#records.delete(id);
  }
}
