import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every bare module specifier `entry` loads at run time, following relative imports (type-only imports load nothing). */
function bareImports(entry: string): Set<string> {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) {
      const spec = match[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.add(spec);
    }
  };
  visit(entry);
  return bare;
}

test('the providers run in every runtime: fetch and SSE only, no node: module, no package but @lousho/protocol', () => {
  for (const entry of ['index.ts', 'mock-response.ts']) expect([...bareImports(resolve(srcDir, entry))].filter((spec) => spec !== '@lousho/protocol')).toEqual([]);
});
