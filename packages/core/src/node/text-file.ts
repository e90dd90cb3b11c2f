import { readFile } from 'node:fs/promises';

/** Reads a UTF-8 text file (for `projectInstructions: { file }`). */
export async function readTextFile(path: string): Promise<string> {
  return readFile(path, 'utf8');
}
