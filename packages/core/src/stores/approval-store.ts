import type { ApprovalStatus, ApprovalRecord, ApprovalStore } from '@lousho/protocol';

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
