// @lousho/core's HTTP handler runs in every runtime (the wire it writes is in @lousho/protocol, whose
// own test/protocol/isomorphic.test.ts checks that the browser half loads nothing of the server half).
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every module `entry` loads at run time, following relative imports (type-only imports load nothing). */
function runtimeImports(entry: string): { files: string[]; bare: string[] } {
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
  visit(resolve(srcDir, entry));
  return { files: [...files].map((file) => relative(srcDir, file)), bare: [...bare] };
}

test('the handler is isomorphic: no node: module, no Node adapter', () => {
  const { files, bare } = runtimeImports('http/index.ts');
  expect(bare.filter((spec) => spec.startsWith('node:'))).toEqual([]);
  expect(files.filter((file) => file.startsWith('node/'))).toEqual([]);
});
