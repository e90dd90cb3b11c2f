/** Where a command writes and where it runs (the process by default; tests pass their own). */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  cwd: string;
  /** The stream behind `stderr`, when it is one: a terminal gets progress bars. */
  stderrStream?: NodeJS.WritableStream & { isTTY?: boolean };
  /** Color the output (default: no). */
  color?: boolean;
}
