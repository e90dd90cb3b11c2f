import { fileStoreContract } from '../../src/testing/file-store-contract.js';
import { MemoryFileStore } from '../../src/files/index.js';

fileStoreContract('MemoryFileStore', () => new MemoryFileStore());
