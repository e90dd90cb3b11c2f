import { joinPath } from './paths.js';
import type { FsEntry, FsProvider } from './types.js';

export interface WalkOptions {
  /** Directory names never entered (default `.git`, `node_modules`). */
  skipDirs: ReadonlySet<string>;
  /** Stop after visiting this many entries. */
  maxEntries: number;
  signal?: AbortSignal;
}

export interface WalkedFile {
  path: string;
  entry: FsEntry;
}

/**
 * Files under `dir`, breadth first, in name order. Symlinks are reported as entries but never
 * followed (a link cannot lead the walk out of the root, or into a loop). `truncated` once the
 * entry budget ran out.
 */
export async function walkFiles(fs: FsProvider, dir: string, options: WalkOptions, onFile: (file: WalkedFile) => boolean | void | Promise<boolean | void>): Promise<{ truncated: boolean }> {
  const queue = [dir];
  let visited = 0;
  while (queue.length > 0) {
    const current = queue.shift()!;
    let entries: FsEntry[];
    try {
      entries = await fs.readDir(current);
    } catch (error) {
      // The starting directory must exist; a directory that vanished meanwhile is skipped.
      if (current === dir) throw error;
      continue;
    }
    for (const entry of entries) {
      options.signal?.throwIfAborted();
      if (++visited > options.maxEntries) return { truncated: true };
      const path = joinPath(current, entry.name);
      if (entry.type === 'directory') {
        if (!options.skipDirs.has(entry.name)) queue.push(path);
      } else if (entry.type === 'file') {
        if ((await onFile({ path, entry })) === false) return { truncated: true };
      }
    }
  }
  return { truncated: false };
}
