import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { countLines } from '../line-counts.mjs';

const repo = resolve(import.meta.dirname, '../..');

describe('line counts', () => {
  it('counts every line, and as code only those that are neither blank nor only a comment', () => {
    const text = [
      '// a line comment',
      '/**',
      ' * A doc comment that mentions --> and // inside.',
      ' */',
      'export const a = 1; // code with a comment after it',
      '',
      '/* one-line block */ const b = 2;',
      '<!-- a template comment -->',
      '<div>{a}</div>',
      "const url = 'https://example.com';",
      '',
    ].join('\n');
    expect(countLines(text)).toEqual({ total: 10, code: 4 });
  });

  it('prints a row per package and one per folder of core', () => {
    const byPackage = execFileSync('node', ['scripts/line-counts.mjs'], { cwd: repo, encoding: 'utf8' });
    expect(byPackage).toMatch(/^\| `packages\/core` \| \d+ \| [\d,]+ \| [\d,]+ \|$/m);
    expect(byPackage).toMatch(/^\| `packages\/client` \|/m);
    const byFolder = execFileSync('node', ['scripts/line-counts.mjs', '--by-folder', 'packages/core'], { cwd: repo, encoding: 'utf8' });
    expect(byFolder).toMatch(/^\| `agent\/` \| \d+ \|/m);
    expect(byFolder).toMatch(/^\| \*\*total\*\* \|/m);
  });
});
