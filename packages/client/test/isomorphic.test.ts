import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every module of this package `entry` loads, following relative imports, and the packages they import (type-only imports included). */
function imports(entry: string): { files: string[]; bare: string[] } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(/(?:^\s*(?:import|export)\s+(?:[^'"]*?\sfrom\s+)?|\bimport\()['"]([^'"]+)['"]/gm)) {
      const spec = match[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.add(spec);
    }
  };
  visit(resolve(srcDir, entry));
  return { files: [...files].map((file) => relative(srcDir, file)), bare: [...bare] };
}

test('the client imports nothing but @lousho/protocol (no core root, nothing from node:, no other package)', () => {
  // What @lousho/protocol loads in turn is checked in @lousho/protocol (its test/protocol/isomorphic.test.ts).
  expect(imports('index.ts').bare).toEqual(['@lousho/protocol']);
});

test('the HTTP client alone does not load the in-process transport', () => {
  const { files } = imports('create-agent-client.ts');
  const http = imports('http-transport.ts').files;
  expect(http.filter((file) => /in-process/.test(file))).toEqual([]);
  // createAgentClient reaches it only through import() (lazy-in-process-transport.ts).
  expect(files).toContain('in-process-chunk.ts');
  expect(readFileSync(resolve(srcDir, 'lazy-in-process-transport.ts'), 'utf8')).toMatch(/import\('\.\/in-process-chunk\.js'\)/);
});
