// `npm run docs:build`: the API reference (docs/api/index.html) with TypeDoc, from the doc comments
// of @lousho/build-ai-agent's public entries (typedoc.json). It fails on any TypeDoc warning: a
// broken link, a referenced type that is not exported, and an export without a doc comment (listed
// with where it is defined, so the comment is easy to write).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

// The reference covers the whole package: every entry of its exports map is an entry point, and
// every @lousho package it re-exports must be documented (TypeDoc only checks the packages listed
// in packagesRequiringDocumentation: one left out would let its undocumented exports through).
const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8'));
const manifest = JSON.parse(readFileSync(join(root, 'packages/build-ai-agent/package.json'), 'utf8'));
const missingEntries = Object.entries(manifest.exports)
  .filter(([key]) => key !== './package.json')
  .map(([key, value]) => `packages/build-ai-agent/${value['@lousho/source'].slice(2)} (${key})`)
  .filter((entry) => !config.entryPoints.includes(entry.split(' ')[0]));
const missingPackages = Object.keys(manifest.dependencies)
  .filter((name) => name.startsWith('@lousho/') && !config.packagesRequiringDocumentation.includes(name));
if (missingEntries.length + missingPackages.length > 0) {
  if (missingEntries.length > 0) console.error(`typedoc.json: entryPoints lacks these entries of @lousho/build-ai-agent:\n${missingEntries.map((e) => `  ${e}`).join('\n')}`);
  if (missingPackages.length > 0) console.error(`typedoc.json: packagesRequiringDocumentation lacks ${missingPackages.join(', ')}`);
  process.exit(1);
}
// TypeDoc logs its warnings on stderr: read both streams. TypeDoc itself is told to go on past
// warnings (typedoc.json's treatWarningsAsErrors is for running it by hand), so that this script
// can sort them into one readable message; it then fails on any of them.
const typedoc = spawnSync(join(root, 'node_modules/.bin/typedoc'), ['--treatWarningsAsErrors', 'false', ...process.argv.slice(2)], { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const output = `${typedoc.stdout ?? ''}\n${typedoc.stderr ?? ''}`;
if (typedoc.status !== 0) {
  process.stderr.write(output);
  process.exit(1);
}
// eslint-disable-next-line no-control-regex
const lines = output.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((line) => line.startsWith('[warning]') || line.startsWith('[error]'));
const undocumented = [];
const other = [];
for (const line of lines) {
  const m = /^\[warning\] (\S+ \(\w+\), defined in .*) does not have any documentation$/.exec(line);
  if (m) undocumented.push(m[1].replace(/,$/, ''));
  else if (!/^\[warning\] Found \d+ errors and \d+ warnings$/.test(line)) other.push(line);
}
if (other.length > 0) console.error(`TypeDoc warnings:\n${other.join('\n')}`);
if (undocumented.length > 0) console.error(`Exports without a doc comment (write one: what it is for, units, defaults, errors):\n${undocumented.map((n) => `  ${n}`).join('\n')}`);
if (other.length + undocumented.length > 0) process.exit(1);
console.log('docs/api/index.html written; every export is documented.');
