import { memoryStore } from '../../src/stores/index.js';
import { storeContract } from '../../src/testing/stores.js';

storeContract('memoryStore()', () => memoryStore());
