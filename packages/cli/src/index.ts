// Node-only: the lousho command and the built-in deployment targets.
export { runCli, createProgram, COMMANDS, type CliIo, type CommandFactory } from './program.js';
export { buildCommand } from './commands/build.js';
export { evalCommand } from './commands/eval.js';
export { junitXml, type JunitEval } from './eval/junit.js';
export type { EvalRunFile } from './eval/report-file.js';
export { registerBuiltinAdapters, BUILTIN_ADAPTERS } from './deploy/builtin.js';
export { nodeAdapter } from './deploy/node-target.js';
export { dockerAdapter, dockerfile, NODE_IMAGE } from './deploy/docker-target.js';
export { workersAdapter, WORKER_CONDITIONS } from './deploy/workers-target.js';
export { CLI_ERROR_CODES } from './errors.js';
