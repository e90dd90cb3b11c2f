import { durableSuite } from './suite.js';
import { memoryKind } from './fixtures.js';

durableSuite(memoryKind);
