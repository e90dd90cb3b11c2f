import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../src');

/** Every file the entry loads at run time (following relative imports) and every bare specifier. */
function runtimeImports(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, 'utf8');
    const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
    for (const match of source.matchAll(pattern)) {
      const spec = match[1]!;
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec.replace(/\.js$/, '.ts')));
      else bare.add(spec);
    }
  };
  visit(entry);
  return { files, bare };
}

test('the entry loads only the toolkit root, its IndexedDB store and zod: no node: modules, nothing Node-only', () => {
  const { files, bare } = runtimeImports(resolve(srcDir, 'index.ts'));
  expect(files.size).toBeGreaterThan(8);
  expect([...bare].sort()).toEqual(['@lousho/build-ai-agent', '@lousho/build-ai-agent/indexeddb', 'zod']);
  for (const file of files) {
    const source = readFileSync(file, 'utf8');
    expect(source, file).not.toMatch(/\bprocess\.|\brequire\(|\bBuffer\b|\b__dirname\b/);
  }
});
