import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';

/**
 * The package never compiles or runs code from text: no `eval`, no `Function` constructor, no
 * `vm`, no dynamic import, anywhere in what it ships. Checked on the built JavaScript (built here
 * from the current sources with the package's own build config).
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = mkdtempSync(join(tmpdir(), 'lousho-flows-dist-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(() => {
  const tsc = createRequire(join(packageDir, 'package.json')).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', join(packageDir, 'tsconfig.build.json'), '--outDir', out, '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false', '--noCheck'], { stdio: 'pipe' });
}, 120_000);

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.js') ? [join(dir, entry.name)] : []));
}

const FORBIDDEN: [string, RegExp][] = [
  ['eval', /\beval\s*\(|\[\s*['"]eval['"]\s*\]|\.eval\b/],
  ['the Function constructor', /\bnew\s+Function\b|\bFunction\s*\(|\bFunction\s*\.\s*(?:apply|call)\b|\.constructor\s*\(/],
  ['vm', /['"](?:node:)?vm['"]/],
  ['dynamic import', /\bimport\s*\(/],
  ['a string run by a timer', /\bset(?:Timeout|Interval)\s*\(\s*['"`]/],
];

it('the built package has no eval, Function constructor, vm or dynamic import', () => {
  const built = files(out);
  expect(built.length).toBeGreaterThan(10);
  expect(built.some((file) => file.endsWith(join('expression', 'evaluate.js')))).toBe(true);
  const found: string[] = [];
  for (const file of built) {
    const text = readFileSync(file, 'utf8');
    for (const [what, pattern] of FORBIDDEN) if (pattern.test(text)) found.push(`${file.slice(out.length + 1)}: ${what}`);
  }
  expect(found).toEqual([]);
});

it('the check finds what it looks for', () => {
  const samples = ['eval("1")', 'globalThis["eval"]', 'new Function("a", "return a")', 'Function("return this")()', "import('./x.js')", "require('node:vm')", 'setTimeout("alert(1)")', 'x.constructor("return 1")'];
  for (const sample of samples) expect(FORBIDDEN.some(([, pattern]) => pattern.test(sample))).toBe(true);
  expect(FORBIDDEN.some(([, pattern]) => pattern.test('evaluateExpression(source, variables)'))).toBe(false);
});
