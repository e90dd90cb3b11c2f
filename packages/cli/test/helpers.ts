import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli, type CliIo } from '../src/index.js';

export const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
export const packageDir = fileURLToPath(new URL('..', import.meta.url));

export async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'lousho-build-'));
}

/** Runs the CLI in process; resolves to its exit code and output. */
export async function lousho(args: string[], cwd = packageDir): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

/** The events of an SSE body. */
export function sseEvents(text: string): Record<string, any>[] {
  return text
    .split('\n\n')
    .map((frame) => frame.split('\n').find((line) => line.startsWith('data: ')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(6)) as Record<string, any>)
    .filter((event) => typeof event.type === 'string');
}
