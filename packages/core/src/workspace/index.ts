// Workspace tools and providers, and the sandboxes. The Node-only parts (NodeWorkspace,
// SubprocessSandbox, BubblewrapSandbox) reach Node's built-ins through process.getBuiltinModule, never an import, so
// this module is safe in the isomorphic root entry.
export type { FsProvider, ShellProvider, FsStat, FsEntry, FsEntryType, ExecOptions, ExecResult } from './types.js';
export { createFsTools, type FsToolsOptions, type FsTools, type ReadOnlyFsTools } from './fs-tools.js';
export { createShellTool, type ShellToolOptions } from './shell-tool.js';
export { MemoryWorkspace, type MemoryWorkspaceOptions, type ScriptedCommand, type ScriptedResult, type ScriptedExecContext } from './memory-workspace.js';
export { NodeWorkspace, type NodeWorkspaceOptions } from './node-workspace.js';
export { SandboxShell } from './sandbox-shell.js';
export { WorkspaceError } from './errors.js';
export { NoopSandbox } from '../sandbox/noop-sandbox.js';
export { SubprocessSandbox, type SubprocessSandboxOptions } from '../sandbox/subprocess-sandbox.js';
export { BubblewrapSandbox, type BubblewrapSandboxOptions, type SandboxLimits, type SandboxNetwork } from '../sandbox/bubblewrap-sandbox.js';
