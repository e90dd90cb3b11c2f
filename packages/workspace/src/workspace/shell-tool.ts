import { z } from 'zod';
import { ERROR_CODES, SDKError, defineTool, type NeedsApproval } from '@lousho/core';
import { capText } from './output-buffer.js';
import type { ShellProvider } from './types.js';

/** Options of `createShellTool()`. */
export interface ShellToolOptions {
  /** The tool's name (default `'shell'`; the command guardrail checks tools named `shell` by default). */
  name?: string;
  description?: string;
  /** Time limit when the call gives none (default 120,000 ms). */
  timeoutMs?: number;
  /** Longest time limit a call may ask for (default 600,000 ms). */
  maxTimeoutMs?: number;
  /** Bytes of each of stdout and stderr the model gets (default 30,000: the start and the end are kept). */
  maxOutputBytes?: number;
  /** Ask a person before commands run: `true`, or a predicate of `{ command, cwd }`. */
  needsApproval?: NeedsApproval<{ command: string; cwd?: string; timeout_ms?: number }>;
}

function positive(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createShellTool(): ${what} must be a positive integer, got ${JSON.stringify(value)}.`);
  return value;
}

/**
 * The `shell` tool over a `ShellProvider` (a `NodeWorkspace`, a `SandboxShell`, a `MemoryWorkspace`):
 * runs a command line and returns its exit code and output. A failing command is a normal result
 * (the model reads the exit code); a timeout says so; output is capped (start and end kept).
 */
export function createShellTool(shell: ShellProvider, options: ShellToolOptions = {}) {
  if (!shell || typeof shell.exec !== 'function') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createShellTool(shell) needs a ShellProvider (an object with exec(command, options)).', {
      hint: 'Pass a NodeWorkspace, a SandboxShell, a MemoryWorkspace, or your own { exec }.',
    });
  }
  const defaultTimeout = positive(options.timeoutMs, 120_000, 'timeoutMs');
  const maxTimeout = positive(options.maxTimeoutMs, 600_000, 'maxTimeoutMs');
  const maxBytes = positive(options.maxOutputBytes, 30_000, 'maxOutputBytes');
  return defineTool({
    name: (options.name ?? 'shell') as 'shell',
    displayName: 'Shell',
    description:
      options.description ??
      'Run a shell command line (sh) in the workspace and get its exit code, stdout and stderr. Commands run non-interactively; long output is cut in the middle.',
    input: z.object({
      command: z.string().min(1).describe('The command line'),
      cwd: z.string().optional().describe('Directory to run in, relative to the workspace root'),
      timeout_ms: z.number().int().min(1).max(maxTimeout).optional().describe(`Time limit in ms (default ${defaultTimeout})`),
    }),
    ...(options.needsApproval !== undefined ? { needsApproval: options.needsApproval } : {}),
    async execute({ command, cwd, timeout_ms: timeoutMs }, ctx) {
      const result = await shell.exec(command, {
        ...(cwd !== undefined ? { cwd } : {}),
        timeoutMs: timeoutMs ?? defaultTimeout,
        maxOutputBytes: maxBytes,
        ...(ctx.abortSignal ? { signal: ctx.abortSignal } : {}),
      });
      const stdout = capText(result.stdout, maxBytes);
      const stderr = capText(result.stderr, maxBytes);
      return {
        exitCode: result.exitCode,
        stdout: stdout.text,
        stderr: stderr.text,
        ...(result.signal ? { signal: result.signal } : {}),
        ...(result.timedOut ? { timedOut: true, note: `The command was killed after ${timeoutMs ?? defaultTimeout} ms.` } : {}),
        ...(result.truncated || stdout.truncated || stderr.truncated ? { truncated: true } : {}),
      };
    },
  });
}
