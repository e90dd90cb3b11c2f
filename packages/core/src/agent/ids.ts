// Moved to src/ids.ts (issue 46: ids belong below the loop and the tools that both use them); re-exported here.
export { newId } from '../ids.js';
