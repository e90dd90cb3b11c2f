import { describe, expect, it } from 'vitest';
import * as entry from '@lousho/build-ai-agent/indexeddb';
import { IndexedDbStore, IndexedDbStoreError } from '@lousho/indexeddb';

describe('@lousho/build-ai-agent/indexeddb', () => {
  it('is the IndexedDB store of @lousho/indexeddb', () => {
    expect(entry.IndexedDbStore).toBe(IndexedDbStore);
    expect(entry.IndexedDbStoreError).toBe(IndexedDbStoreError);
    expect(Object.keys(entry).sort()).toEqual(['IndexedDbStore', 'IndexedDbStoreError', 'SCHEMA_VERSION']);
  });
});
