import { memoryStore } from '../../src/stores/index.js';
import { storeContract } from './store-contract.js';

storeContract('memoryStore()', () => memoryStore());
