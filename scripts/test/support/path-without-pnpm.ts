import { existsSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';

/**
 * A PATH as on a machine with only Node and npm: one folder with a link to every command of this
 * PATH but pnpm (and corepack, which can stand in for it). The global pnpm stays installed.
 */
export function pathWithoutPnpm(path = process.env['PATH'] ?? ''): string {
  const bin = mkdtempSync(join(tmpdir(), 'lousho-no-pnpm-'));
  for (const dir of path.split(delimiter).filter((dir) => dir && existsSync(dir))) {
    for (const name of readdirSync(dir)) {
      if (/^(pnpm|pnpx|corepack)(\.|$)/.test(name) || existsSync(join(bin, name))) continue;
      symlinkSync(join(dir, name), join(bin, name));
    }
  }
  return bin;
}
