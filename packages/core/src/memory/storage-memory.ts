import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { newId } from '../ids.js';
import { MemoryStorageService, storageKeySegment } from '../storage/storage-service.js';
import type { StorageService } from '@lousho/protocol';
import type { MemoryItem, MemoryProvider } from './types.js';

/** What `storageMemory()` takes: how many items a slot keeps. */
export interface StorageMemoryOptions {
  /** Items kept per slot; the oldest go first (default 1,000). */
  maxItems?: number;
}

/**
 * A `MemoryProvider` over any `StorageService`: one value per slot holding its items as JSON, each
 * `add` one atomic `update` (under the storage's lock, so two processes adding to the same slot
 * both keep their item). Search matches the query's words, best first, newest first on ties.
 */
export function storageMemory(storage: StorageService, options: StorageMemoryOptions = {}): MemoryProvider {
  const maxItems = options.maxItems ?? 1000;
  if (!Number.isInteger(maxItems) || maxItems < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `maxItems must be a positive integer, got ${String(options.maxItems)}.`, { hint: 'e.g. { maxItems: 1000 }' });
  }
  // Slot names come from sessions and users: every character is made safe for a key (and a file name).
  const keyOf = (slot: string) => `memory/${storageKeySegment(slot)}`;
  const read = async (slot: string): Promise<MemoryItem[]> => parseItems(await storage.get(keyOf(slot)), slot);

  return {
    async add(slot, text) {
      const item: MemoryItem = { id: newId('mem'), text, createdAt: new Date().toISOString() };
      await storage.update(keyOf(slot), (current) => {
        const items = parseItems(current, slot);
        items.push(item);
        return JSON.stringify(items.length > maxItems ? items.slice(items.length - maxItems) : items);
      });
      return item;
    },
    async recent(slot, limit) {
      return (await read(slot)).slice(-limit).reverse();
    },
    async search(slot, query, limit) {
      const items = await read(slot);
      const terms = [...new Set(query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((term) => term.length > 1))];
      if (terms.length === 0) return items.slice(-limit).reverse();
      const scored: { item: MemoryItem; score: number; index: number }[] = [];
      items.forEach((item, index) => {
        const text = item.text.toLowerCase();
        let score = 0;
        for (const term of terms) if (text.includes(term)) score++;
        if (score > 0) scored.push({ item, score, index });
      });
      scored.sort((a, b) => b.score - a.score || b.index - a.index);
      return scored.slice(0, limit).map((entry) => entry.item);
    },
  };
}

function parseItems(text: string | undefined, slot: string): MemoryItem[] {
  if (text === undefined) return [];
  try {
    const value = JSON.parse(text) as unknown;
    if (Array.isArray(value)) return value as MemoryItem[];
  } catch {
    // Reported below.
  }
  throw new SDKError(ERROR_CODES.LOUSHO_STORAGE_ERROR, `The memory slot '${slot.slice(0, 80)}' holds data that is not a list of items.`, {
    hint: 'The stored value was changed by something else; delete it to start the slot again.',
  });
}

/** A `MemoryProvider` in this process's memory (lost on restart): tests, demos, short-lived servers. */
export function inMemoryMemory(options: StorageMemoryOptions = {}): MemoryProvider {
  return storageMemory(new MemoryStorageService(), options);
}
