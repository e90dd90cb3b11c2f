import { describe } from 'vitest';
import { replayStoreContract } from '../../../node/test/channels/replay-contract.js';
import { databaseUrl, freshSchema, openStore } from './pg-env.js';

describe.skipIf(!databaseUrl)('webhook replay protection on PostgresStore (store.replays)', () => {
  replayStoreContract('PostgresStore', async () => {
    const schema = freshSchema('replay');
    const first = await openStore({ schema });
    const second = await openStore({ schema });
    return {
      first: first.replays,
      second: second.replays,
      reopen: async () => {
        await first.close();
        return (await openStore({ schema })).replays;
      },
    };
  });
});
