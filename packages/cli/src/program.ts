import { Command, CommanderError } from 'commander';
import { SDKError } from '@lousho/core';
import pc from 'picocolors';
import { buildCommand } from './commands/build.js';
import { evalCommand } from './commands/eval.js';
import { mcpCommand } from './commands/mcp.js';
import type { CliIo } from './io.js';

export type { CliIo } from './io.js';

/** A subcommand: a function of the io returning a commander `Command`. Add yours to `COMMANDS`. */
export type CommandFactory = (io: CliIo) => Command;

/** Every `lousho` subcommand, one module each (commands/<name>.ts). */
export const COMMANDS: CommandFactory[] = [buildCommand, evalCommand, mcpCommand];

export function createProgram(io: CliIo, commands: readonly CommandFactory[] = COMMANDS): Command {
  const program = new Command('lousho').description('Lousho agents: build, deploy, evaluate and serve over MCP').version('0.1.0').showHelpAfterError();
  program.configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) });
  program.exitOverride();
  for (const make of commands) {
    const command = make(io);
    command.configureOutput({ writeOut: (text) => io.stdout(text), writeErr: (text) => io.stderr(text) });
    command.exitOverride();
    program.addCommand(command);
  }
  return program;
}

const processIo: CliIo = {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  get cwd() {
    return process.cwd();
  },
  stderrStream: process.stderr,
  color: pc.isColorSupported && process.stdout.isTTY === true,
};

/** `lousho build --help | head`: a reader that stops early is not an error. */
function quietOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
}

/** Runs `lousho` with `argv` (user arguments only) and resolves to the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  if (io === processIo) quietOnClosedPipe();
  try {
    await createProgram(io).parseAsync([...argv], { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    if (SDKError.is(error)) {
      io.stderr(`error ${error.code}: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`);
      return 1;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
