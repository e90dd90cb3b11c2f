// `npm run docs:build`: the API reference (docs/api/index.html) with TypeDoc, from the doc comments
// of @lousho/build-ai-agent's public entries (typedoc.json). It fails on any TypeDoc warning (a
// broken link, a referenced type that is not exported, ...) and on an undocumented export, except
// the exports listed in scripts/docs-undocumented.txt: the ones that had no doc comment when this
// check came in. That list may only shrink: an export that gains its comment must leave it (the
// build says so), and a new export without one fails. When the list is empty, delete it and set
// TypeDoc's own treatWarningsAsErrors (typedoc.json) instead.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const baselineFile = join(root, 'scripts/docs-undocumented.txt');
// TypeDoc logs its warnings on stderr: read both streams.
const typedoc = spawnSync(join(root, 'node_modules/.bin/typedoc'), ['--treatWarningsAsErrors', 'false', ...process.argv.slice(2)], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const output = `${typedoc.stdout ?? ''}\n${typedoc.stderr ?? ''}`;
if (typedoc.status !== 0) {
  process.stderr.write(output);
  process.exit(1);
}
// eslint-disable-next-line no-control-regex
const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => line.startsWith('[warning]') || line.startsWith('[error]'));
const undocumented = new Set();
const other = [];
for (const line of lines) {
  const m = /^\[warning\] (\S+) \((\w+)\), defined in .* does not have any documentation$/.exec(line);
  if (m) undocumented.add(`${m[1]} (${m[2]})`);
  else if (!/^\[warning\] Found \d+ errors and \d+ warnings$/.test(line)) other.push(line);
}
const baseline = new Set(existsSync(baselineFile) ? readFileSync(baselineFile, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#')) : []);
const added = [...undocumented].filter((name) => !baseline.has(name));
const fixed = [...baseline].filter((name) => !undocumented.has(name));
if (other.length > 0) console.error(`TypeDoc warnings:\n${other.join('\n')}`);
if (added.length > 0) console.error(`Exports without a doc comment (write one):\n${added.map((n) => `  ${n}`).join('\n')}`);
if (fixed.length > 0) console.error(`Documented now: remove from scripts/docs-undocumented.txt:\n${fixed.map((n) => `  ${n}`).join('\n')}`);
if (other.length + added.length + fixed.length > 0) process.exit(1);
console.log(`docs/api/index.html written; ${baseline.size} exports still wait for a doc comment (scripts/docs-undocumented.txt).`);
