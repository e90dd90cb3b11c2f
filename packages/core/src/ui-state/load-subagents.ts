import { setNest } from './reduce.js';

/**
 * Loads the sub-agent nesting into the reducer (`nest` in reduce.ts). An app bundler puts
 * `./subagents.js` in a chunk of its own, fetched only when a sub-agent's event arrives (the
 * browser loads a module once; a failed load is tried again on the next call).
 */
export const loadSubagents = (): Promise<unknown> => import('./subagents.js').then((module) => setNest(module.nestEvent));
