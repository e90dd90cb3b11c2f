// Lines of source per package (src/ of packages/* and apps/*: .ts, .tsx, .svelte, .vue): total lines
// and code lines (neither blank nor only a comment). `--by-folder <package folder>` splits one
// package by its src/ folders, e.g. `node scripts/line-counts.mjs --by-folder packages/core` (or any
// folder by its own: `--by-folder packages/core/src/agent`).
// Issue 46 holds @lousho/core under 15,000 total lines.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { listPackages } from './lib/package-graph.mjs';

const SOURCE = /\.(ts|tsx|svelte|vue)$/;

function sourceFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return SOURCE.test(entry.name) ? [path] : [];
  });
}

/** Total and code lines of a file. Block comments (including JSDoc) and `//` lines count as comments; `<!-- -->` too. */
export function countLines(text) {
  let code = 0;
  let closer; // '*/' or '-->' while inside a block comment
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const raw of lines) {
    let line = raw.trim();
    let hasCode = false;
    while (line.length > 0) {
      if (closer) {
        const close = line.indexOf(closer);
        if (close < 0) break;
        line = line.slice(close + closer.length).trim();
        closer = undefined;
      } else if (line.startsWith('//')) {
        break;
      } else if (line.startsWith('/*') || line.startsWith('<!--')) {
        closer = line.startsWith('/*') ? '*/' : '-->';
        line = line.slice(line.startsWith('/*') ? 2 : 4);
      } else {
        hasCode = true;
        break;
      }
    }
    if (hasCode) code += 1;
  }
  return { total: lines.length, code };
}

function tally(files) {
  const sum = { files: files.length, total: 0, code: 0 };
  for (const file of files) {
    const { total, code } = countLines(readFileSync(file, 'utf8'));
    sum.total += total;
    sum.code += code;
  }
  return sum;
}

const row = (label, { files, total, code }) =>
  `| ${label} | ${files} | ${total.toLocaleString('en-US')} | ${code.toLocaleString('en-US')} |`;
const header = (first) => [`| ${first} | files | lines | code lines |`, '| --- | ---: | ---: | ---: |'];

function byPackage(root) {
  const rows = listPackages(root).map(({ folder }) => [folder, tally(sourceFiles(join(root, folder, 'src')))]);
  const all = rows.reduce((sum, [, t]) => ({ files: sum.files + t.files, total: sum.total + t.total, code: sum.code + t.code }), { files: 0, total: 0, code: 0 });
  return [...header('package src'), ...rows.filter(([, t]) => t.files > 0).map(([label, t]) => row(`\`${label}\``, t)), row('**all**', all)];
}

function byFolder(root, folder) {
  // A package folder is split by its src/ folders; any other folder (packages/core/src/agent) by its own.
  const src = existsSync(join(root, folder, 'src')) ? join(root, folder, 'src') : join(root, folder);
  const entries = readdirSync(src, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  const rows = entries.map((entry) => {
    const path = join(src, entry.name);
    const files = entry.isDirectory() ? sourceFiles(path) : SOURCE.test(entry.name) ? [path] : [];
    return [`\`${relative(src, path)}${entry.isDirectory() ? '/' : ''}\``, tally(files)];
  }).filter(([, t]) => t.files > 0);
  return [...header(relative(root, src)), ...rows.map(([label, t]) => row(label, t)), row('**total**', tally(sourceFiles(src)))];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = resolve(import.meta.dirname, '..');
  const at = process.argv.indexOf('--by-folder');
  console.log((at >= 0 ? byFolder(root, process.argv[at + 1] ?? 'packages/core') : byPackage(root)).join('\n'));
}
