// @lousho/workspace: the workspace tools and providers, the sandboxes and the command guardrail.
// The Node-only parts (NodeWorkspace, SubprocessSandbox, BubblewrapSandbox) reach Node's built-ins
// through process.getBuiltinModule, never an import, so this entry is safe in a browser bundle (they
// throw LOUSHO_UNSUPPORTED_RUNTIME there).
export type { FsProvider, ShellProvider, FsStat, FsEntry, FsEntryType, ExecOptions, ExecResult } from './workspace/types.js';
export { createFsTools, type FsToolsOptions, type FsTools, type ReadOnlyFsTools } from './workspace/fs-tools.js';
export { createShellTool, type ShellToolOptions } from './workspace/shell-tool.js';
export { MemoryWorkspace, type MemoryWorkspaceOptions, type ScriptedCommand, type ScriptedResult, type ScriptedExecContext } from './workspace/memory-workspace.js';
export { NodeWorkspace, type NodeWorkspaceOptions } from './node-workspace.js';
export { SandboxShell } from './workspace/sandbox-shell.js';
export { WorkspaceError } from './workspace/errors.js';
export { NoopSandbox } from './sandbox/noop-sandbox.js';
export { SubprocessSandbox, type SubprocessSandboxOptions } from './sandbox/subprocess-sandbox.js';
export { BubblewrapSandbox, type BubblewrapSandboxOptions, type SandboxLimits, type SandboxNetwork } from './sandbox/bubblewrap-sandbox.js';
// The command guardrail (a tool guardrail over shell command lines) and the shell parser it reads them with.
export {
  createCommandGuardrail,
  MAX_COMMAND_LINE_LENGTH,
  type CommandGuardrailOptions,
  type CommandRefusal,
  type CommandRefusalCode,
  type CommandRule,
  type GuardedCommand,
} from './command-guardrail/command-guardrail.js';
export { parseShell, ShellSyntaxError } from './command-guardrail/shell-parser.js';
export type { ShellScript, ShellCommand, SimpleCommand, CompoundCommand, ShellWord, WordPart, Redirect } from './command-guardrail/shell-ast.js';
