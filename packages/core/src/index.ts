// The isomorphic root entry: nothing here may import a Node-only module.
export * from './messages.js';
export type * from './providers/types.js';
export type * from './usage/types.js';
export type * from './tools/types.js';
export type * from './events/types.js';
