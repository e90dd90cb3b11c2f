import { describe } from 'vitest';
import { storeContract } from '../stores/store-contract.js';
import { databaseUrl, openStore } from './pg-env.js';

describe.skipIf(!databaseUrl)('PostgresStore', () => {
  storeContract('PostgresStore', () => openStore());
});
