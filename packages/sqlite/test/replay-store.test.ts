import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createWebhookAuthenticator, MemoryReplayStore } from '@lousho/node';
import { SqliteStore } from '../src/index.js';
import { replayStoreContract, signedRequest } from '@lousho/test-kit/replay-contract';

const dir = mkdtempSync(join(tmpdir(), 'lousho-replay-'));
const opened: SqliteStore[] = [];
let n = 0;
afterAll(() => {
  for (const store of opened) store.close();
  rmSync(dir, { recursive: true, force: true });
});

function open(path: string): SqliteStore {
  const store = new SqliteStore(path);
  opened.push(store);
  return store;
}

describe('webhook replay protection on SqliteStore (store.replays)', () => {
  replayStoreContract('SqliteStore', async () => {
    const path = join(dir, `replays-${++n}.db`);
    const first = open(path);
    const second = open(path);
    return {
      first: first.replays,
      second: second.replays,
      reopen: async () => {
        first.close();
        return open(path).replays;
      },
    };
  });

  it('the in-memory default forgets on restart (why a shared store is needed)', async () => {
    const auth = { type: 'hmac', secret: 's', timestampHeader: 'x-ts' } as const;
    const request = await signedRequest('s', '{}');
    expect(await createWebhookAuthenticator(auth)(request)).toEqual({ ok: true });
    expect(await createWebhookAuthenticator(auth, { replayStore: new MemoryReplayStore() })(request)).toEqual({ ok: true });
  });

  it('a replay store that fails refuses the request (fails closed); a bad one is a config error', async () => {
    const auth = { type: 'hmac', secret: 's', timestampHeader: 'x-ts' } as const;
    const broken = { claim: () => Promise.reject(new Error('database down')) };
    expect(await createWebhookAuthenticator(auth, { replayStore: broken })(await signedRequest('s', '{}'))).toEqual({ ok: false, reason: 'the replay store could not be reached' });
    expect(() => createWebhookAuthenticator(auth, { replayStore: {} as never })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
    expect(() => createWebhookAuthenticator(auth, { replayStore: new MemoryReplayStore(), replayCacheSize: 5 })).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG' }));
  });
});
