// The durable-run fixtures the store packages' tests share: a scripted multi-step job, one process's
// reference run, and the conversation a second process takes over.
export * from './one-process.js';
export * from './scripted-agent.js';
export * from './takeover.js';
