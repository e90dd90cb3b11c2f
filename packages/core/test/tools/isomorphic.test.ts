import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../src');
// errors.ts moved to @lousho/protocol, below core (which re-exports it).
const errorsFile = resolve(srcDir, '../../protocol/src/errors.ts');

/** Every module specifier that `entry` loads at run time, following relative imports (type-only imports load nothing). */
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

test('the tools layer and src/errors.ts load without zod, zod-to-json-schema or node: modules', () => {
  for (const entry of [resolve(srcDir, 'tools/index.ts'), errorsFile]) {
    const { files, bare } = runtimeImports(entry);
    expect(files.size).toBeGreaterThan(0);
    expect([...bare].filter((spec) => spec === 'zod' || spec.startsWith('zod/') || spec === 'zod-to-json-schema' || spec.startsWith('node:'))).toEqual([]);
  }
});

test('src/errors.ts imports nothing, so any entry point can load it alone', () => {
  const { files, bare } = runtimeImports(errorsFile);
  expect(files.size).toBe(1);
  expect(bare.size).toBe(0);
});

test('the root entry (src/index.ts) loads no node: module and only browser-safe packages', () => {
  const { files, bare } = runtimeImports(resolve(srcDir, 'index.ts'));
  expect(files.size).toBeGreaterThan(20);
  expect([...bare].filter((spec) => spec.startsWith('node:'))).toEqual([]);
  // yaml (spec files and skill front matter) is plain JavaScript with no Node built-in (the browser
  // bundle tests in @lousho/build-ai-agent check the built entry bundles without one).
  // @lousho/protocol (its root and the entries core re-exports whole) loads nothing but itself: its
  // own test/protocol/isomorphic.test.ts checks it. @lousho/providers is fetch and SSE only (its
  // test/isomorphic.test.ts). @lousho/store-kit's root is isomorphic (its node:crypto sealer is `./node`).
  const allowed = new Set(['zod', '@standard-schema/spec', 'yaml', '@lousho/protocol', '@lousho/protocol/messages', '@lousho/protocol/errors', '@lousho/protocol/codec', '@lousho/protocol/ui-state', '@lousho/providers', '@lousho/store-kit']);
  expect([...bare].filter((spec) => !allowed.has(spec))).toEqual([]);
  for (const file of files) expect(file).not.toMatch(/[\\/]src[\\/]node[\\/]/);
});
