import { DEFAULT_LEASE_MS } from '../stores/memory-store.js';
import { SessionLeaseLostError, missingRunStartError } from '@lousho/store-kit';
import type { CheckpointStore, CheckpointWrite, LeaseResult, ListWrite, RunProgress, RunStart, StoredCheckpoint } from '@lousho/protocol';
import { parseStored } from './stored-json.js';
import { storageKeySegment } from './storage-service.js';
import type { StorageService } from '@lousho/protocol';

/** One saved piece of a list: the items one checkpoint appended, under a key of its own. */
interface Segment {
  key: string;
  count: number;
}

type ListName = 'messages' | 'stepUsage' | 'toolCalls';

/** A session's head: what its lists are made of, the run's fixed and changing fields, and its lease. */
interface Head {
  lists: Record<ListName, Segment[]>;
  run?: { start: RunStart; progress: RunProgress };
  lease?: { holder: string; expiresAt: number };
}

/** Options of `LocalStorageCheckpointStore`: the lease length and the key prefix. */
export interface LocalStorageCheckpointStoreOptions {
  /** How long a lease lasts without renewal (default 30,000 ms). */
  leaseMs?: number;
  /** The key prefix of every value this store writes (default `checkpoints`). */
  prefix?: string;
}

/** A list with more segments than this is rewritten as one at the next save (amortised O(1) per step). */
const MAX_SEGMENTS = 32;
const LISTS: readonly ListName[] = ['messages', 'stepUsage', 'toolCalls'];

/**
 * A `CheckpointStore` over a `StorageService` (a folder of files with `FileStorageService`, the
 * browser's `localStorage` with `WebStorageService`).
 *
 * A checkpoint costs what changed, not the whole transcript: each save writes the items it appends
 * as a new segment under a key no other save uses, then switches the session's head to it in one
 * atomic `update` that also checks the lease. A save that crashes, or that lost its lease, leaves only
 * an unreferenced segment behind, never a changed session; a fenced writer cannot overwrite what the
 * new holder wrote.
 */
export class LocalStorageCheckpointStore implements CheckpointStore {
  readonly leaseMs: number;
  readonly #storage: StorageService;
  readonly #prefix: string;

  constructor(storage: StorageService, options: LocalStorageCheckpointStoreOptions = {}) {
    this.#storage = storage;
    this.leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
    this.#prefix = options.prefix ?? 'checkpoints';
  }

  #base(sessionId: string): string {
    return `${this.#prefix}/${storageKeySegment(sessionId)}`;
  }

  async acquire(sessionId: string, holder: string, options: { force?: boolean } = {}): Promise<LeaseResult> {
    let acquired = false;
    let existed = false;
    await this.#changeHead(sessionId, (head) => {
      existed = head !== undefined;
      const now = Date.now();
      const lease = head?.lease;
      if (lease && lease.holder !== holder && lease.expiresAt > now && !options.force) return undefined;
      acquired = true;
      return { ...(head ?? emptyHead()), lease: { holder, expiresAt: now + this.leaseMs } };
    });
    if (!acquired) return { acquired: false };
    return { acquired: true, checkpoint: existed ? await this.load(sessionId) : undefined };
  }

  async renew(sessionId: string, holder: string): Promise<boolean> {
    let renewed = false;
    await this.#changeHead(sessionId, (head) => {
      if (head?.lease?.holder !== holder) return undefined;
      renewed = true;
      return { ...head, lease: { holder, expiresAt: Date.now() + this.leaseMs } };
    });
    return renewed;
  }

  async release(sessionId: string, holder: string): Promise<void> {
    await this.#changeHead(sessionId, (head) => {
      if (head?.lease?.holder !== holder) return undefined;
      const { lease: _released, ...rest } = head;
      return rest;
    });
  }

  async save(sessionId: string, write: CheckpointWrite): Promise<void> {
    const current = await this.#readHead(sessionId);
    if (current?.lease?.holder !== write.holder) throw new SessionLeaseLostError(sessionId);
    if (!current.run && !write.run.start) throw missingRunStartError(sessionId);
    const base = this.#base(sessionId);
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
    // A new run starts its step usage and tool calls over.
    const from = (name: ListName): Segment[] => (name !== 'messages' && write.run.start ? [] : current.lists[name]);
    const writes: Record<ListName, ListWrite<unknown>> = { messages: write.messages, stepUsage: write.run.stepUsage, toolCalls: write.run.toolCalls };
    const lists = {} as Record<ListName, Segment[]>;
    for (const name of LISTS) lists[name] = await this.#writeList(base, `${name}-${tag}`, from(name), writes[name]);

    let fenced = false;
    await this.#changeHead(sessionId, (head) => {
      if (head?.lease?.holder !== write.holder) {
        fenced = true;
        return undefined;
      }
      const run = write.run.start ? { start: { ...write.run.start }, progress: { ...write.run.progress } } : { start: head.run!.start, progress: { ...write.run.progress } };
      return { lists, run, lease: { holder: write.holder, expiresAt: Date.now() + this.leaseMs } };
    });
    if (fenced) throw new SessionLeaseLostError(sessionId);
    // Segments the new head no longer names (truncated, merged, or of the previous run) are garbage now.
    const kept = new Set(LISTS.flatMap((name) => lists[name].map((s) => s.key)));
    for (const name of LISTS) for (const segment of current.lists[name]) if (!kept.has(segment.key)) await this.#storage.delete(segment.key);
  }

  /**
   * A list after one `ListWrite`: whole segments before `keep` are kept as they are, a segment cut by
   * `keep` is rewritten up to it, and the appended items form a new segment (all merged into one
   * when the list has grown too many).
   */
  async #writeList(base: string, name: string, segments: readonly Segment[], write: ListWrite<unknown>): Promise<Segment[]> {
    const out: Segment[] = [];
    let covered = 0;
    for (const segment of segments) {
      if (covered >= write.keep) break;
      if (covered + segment.count <= write.keep) {
        out.push(segment);
        covered += segment.count;
        continue;
      }
      const items = (await this.#readSegment(segment)).slice(0, write.keep - covered);
      out.push(await this.#writeSegment(`${base}/${name}-cut`, items));
      covered = write.keep;
    }
    if (write.append.length > 0) out.push(await this.#writeSegment(`${base}/${name}`, write.append));
    if (out.length <= MAX_SEGMENTS) return out;
    const all: unknown[] = [];
    for (const segment of out) all.push(...(await this.#readSegment(segment)));
    return [await this.#writeSegment(`${base}/${name}-all`, all)];
  }

  async #writeSegment(key: string, items: readonly unknown[]): Promise<Segment> {
    await this.#storage.set(key, JSON.stringify(items));
    return { key, count: items.length };
  }

  async #readSegment(segment: Segment): Promise<unknown[]> {
    const text = await this.#storage.get(segment.key);
    if (text === undefined) throw new SegmentGone();
    return parseStored<unknown[]>(text, segment.key);
  }

  /** The session's stored transcript and run state, or undefined before its first checkpoint. */
  async load(sessionId: string): Promise<StoredCheckpoint | undefined> {
    // A save in another process may drop a segment between reading the head and reading it: read again.
    for (let attempt = 0; ; attempt++) {
      const head = await this.#readHead(sessionId);
      if (!head) return undefined;
      try {
        const read = async (name: ListName) => {
          const items: unknown[] = [];
          for (const segment of head.lists[name]) items.push(...(await this.#readSegment(segment)));
          return items;
        };
        const messages = (await read('messages')) as StoredCheckpoint['messages'];
        const run = head.run
          ? { ...head.run.start, ...head.run.progress, stepUsage: (await read('stepUsage')) as never[], toolCalls: (await read('toolCalls')) as never[] }
          : undefined;
        return { sessionId, messages, ...(run ? { run } : {}), leased: head.lease !== undefined && head.lease.expiresAt > Date.now() };
      } catch (error) {
        if (!(error instanceof SegmentGone) || attempt >= 4) throw error;
      }
    }
  }

  /** Forgets the session's checkpoint, transcript and lease. */
  async delete(sessionId: string): Promise<void> {
    const base = this.#base(sessionId);
    await this.#storage.delete(`${base}/head`);
    for (const key of await this.#storage.keys(`${base}/`)) await this.#storage.delete(key);
  }

  async #readHead(sessionId: string): Promise<Head | undefined> {
    const key = `${this.#base(sessionId)}/head`;
    const text = await this.#storage.get(key);
    return text === undefined ? undefined : parseStored<Head>(text, key);
  }

  /** One atomic change of the head; `change` returning undefined leaves it as it is. */
  async #changeHead(sessionId: string, change: (head: Head | undefined) => Head | undefined): Promise<void> {
    const key = `${this.#base(sessionId)}/head`;
    await this.#storage.update(key, (text) => {
      const next = change(text === undefined ? undefined : parseStored<Head>(text, key));
      return next ? JSON.stringify(next) : text;
    });
  }
}

function emptyHead(): Head {
  return { lists: { messages: [], stepUsage: [], toolCalls: [] } };
}

/** A segment the head named was deleted by a concurrent save: the head is read again. */
class SegmentGone extends Error {}
