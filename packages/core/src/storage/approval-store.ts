import type { ApprovalRecord, ApprovalStatus, ApprovalStore } from '@lousho/protocol';
import { parseStored } from './stored-json.js';
import { storageKeySegment } from './storage-service.js';
import type { StorageService } from '@lousho/protocol';

/**
 * An `ApprovalStore` over a `StorageService`: one key per approval (`<prefix>/<id>`, JSON). With a
 * `FileStorageService`, paused approvals survive restarts and can be decided from another process;
 * `claim` is one `update` of the storage, so two concurrent decisions run the call once.
 */
export class StorageServiceApprovalStore implements ApprovalStore {
  readonly #storage: StorageService;
  readonly #prefix: string;

  constructor(storage: StorageService, options: { prefix?: string } = {}) {
    this.#storage = storage;
    this.#prefix = options.prefix ?? 'approvals';
  }

  #key(id: string): string {
    return `${this.#prefix}/${storageKeySegment(id)}`;
  }

  /** Stores (or replaces) the record of a paused call. */
  async save(record: ApprovalRecord): Promise<void> {
    await this.#storage.set(this.#key(record.approvalId), JSON.stringify(record));
  }

  /** The record with this approval id, or undefined. */
  async get(id: string): Promise<ApprovalRecord | undefined> {
    const text = await this.#storage.get(this.#key(id));
    return text === undefined ? undefined : parseStored<ApprovalRecord>(text, this.#key(id));
  }

  /** Records, oldest first, optionally of one session and / or one status. */
  async list(filter: { sessionId?: string; status?: ApprovalStatus } = {}): Promise<ApprovalRecord[]> {
    const out: ApprovalRecord[] = [];
    for (const key of await this.#storage.keys(`${this.#prefix}/`)) {
      const text = await this.#storage.get(key);
      if (text === undefined) continue; // deleted since the listing
      const record = parseStored<ApprovalRecord>(text, key);
      if (filter.sessionId !== undefined && record.sessionId !== filter.sessionId) continue;
      if (filter.status !== undefined && record.status !== filter.status) continue;
      out.push(record);
    }
    return out.sort((a, b) => a.createdAt - b.createdAt);
  }

  async claim(id: string): Promise<ApprovalRecord | undefined> {
    let claimed: ApprovalRecord | undefined;
    await this.#change(id, (record) => {
      if (record.status !== 'pending') return undefined;
      claimed = { ...record, status: 'resolving' };
      return claimed;
    });
    return claimed;
  }

  async complete(id: string, decision: NonNullable<ApprovalRecord['decision']>): Promise<void> {
    await this.#change(id, (record) => ({ ...record, status: 'resolved', decision: { ...decision } }));
  }

  async release(id: string): Promise<void> {
    await this.#change(id, (record) => (record.status === 'resolving' ? { ...record, status: 'pending' } : undefined));
  }

  /** One atomic read-change-write of a record; `change` returning undefined leaves it as it is. */
  async #change(id: string, change: (record: ApprovalRecord) => ApprovalRecord | undefined): Promise<void> {
    const key = this.#key(id);
    await this.#storage.update(key, (text) => {
      if (text === undefined) return undefined;
      const next = change(parseStored<ApprovalRecord>(text, key));
      return next ? JSON.stringify(next) : text;
    });
  }
}
