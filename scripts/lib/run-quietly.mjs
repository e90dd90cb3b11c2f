// Runs a long command without flooding the terminal: one line says what is happening, the
// command's own output goes to a log file, and only a failure shows that log.
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, existsSync, mkdtempSync, openSync, readSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * @param {object} task
 * @param {string} task.label What is happening, e.g. "Installing dependencies".
 * @param {string} [task.note] Said once after the label, e.g. "(first run only, about 3 minutes)".
 * @param {string} task.command
 * @param {string[]} task.args
 * @param {string} [task.cwd]
 * @param {NodeJS.ProcessEnv} [task.env]
 * @param {NodeJS.WriteStream | import('node:stream').Writable} [task.out] Where the progress lines go (default stdout).
 * @param {string} [task.log] The log file the output is appended to (default: a new one in the temp folder).
 * @returns {Promise<{ seconds: number, log: string }>} Rejects when the command fails, after printing its log.
 */
export async function runQuietly({ label, note, command, args, cwd, env, out = process.stdout, log = newLogFile() }) {
  // This step's output starts where the log ends now: a failure shows that part.
  const offset = existsSync(log) ? statSync(log).size : 0;
  const file = createWriteStream(log, { flags: 'a' });
  file.write(`== ${label}: ${[command, ...args].join(' ')}\n`);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const interactive = out.isTTY === true;
  out.write(`${label}${note ? ` ${note}` : ''}...\n`);
  // On a terminal, one line that counts the time, so a long step does not look stuck.
  const ticker = interactive ? setInterval(() => out.write(`\r  ${formatSeconds(seconds())} so far`), 1000) : undefined;
  const code = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.pipe(file, { end: false });
    child.stderr.pipe(file, { end: false });
    child.once('error', (error) => {
      file.write(`\n${error.message}\n`);
      resolve(-1);
    });
    child.once('close', (status, signal) => resolve(status ?? signal));
  });
  clearInterval(ticker);
  await new Promise((resolve) => file.end(resolve));
  if (interactive) out.write('\r\x1b[K');
  if (code === 0) {
    out.write(`  done in ${formatSeconds(seconds())}.\n`);
    return { seconds: seconds(), log };
  }
  const text = readFrom(log, offset);
  out.write(`${label} failed (${typeof code === 'number' ? `exit code ${code}` : String(code)}) after ${formatSeconds(seconds())}. Its output (also in ${log}):\n\n${text}\n`);
  throw Object.assign(new Error(`${label} failed.`), { log, exitCode: typeof code === 'number' && code > 0 ? code : 1 });
}

/** A new, empty log file in the temp folder. */
export function newLogFile(name = 'output.log') {
  return join(mkdtempSync(join(tmpdir(), 'lousho-')), name);
}

/** The text of `path` from byte `offset` on. */
function readFrom(path, offset) {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(statSync(path).size - offset);
    readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** 75 -> "1 min 15 s". */
export function formatSeconds(total) {
  const minutes = Math.floor(total / 60);
  const rest = total % 60;
  return minutes > 0 ? `${minutes} min ${rest} s` : `${rest} s`;
}
