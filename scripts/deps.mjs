#!/usr/bin/env node
// `npm run deps`: the import rules (issue 46). One dependency-cruiser run over every package's src/
// gives both checks:
// - the rules of .dependency-cruiser.mjs, file by file (no-circular, contracts at the bottom, ...),
//   printed as dependency-cruiser's err-long report;
// - cycles between folders (scripts/lib/folder-cycles.mjs), which a file-level rule cannot see:
//   agent/a.ts -> tools/b.ts -> agent/c.ts is no file cycle, yet it ties the two folders together.
//   Every folder of every package's src/ is checked, at every depth (its subfolders and files
//   against each other). A cycle between the top folders of packages/core/src fails the check; the
//   others are listed as warnings until they are gone (then they fail too: move ENFORCED down).
// Exits non-zero on any rule violation or enforced folder cycle.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { format } from 'dependency-cruiser';
import { folderCycles } from './lib/folder-cycles.mjs';

/** The folders whose cycles fail the check (every other folder's are reported). */
const ENFORCED = new Set(['packages/core/src/']);

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const sources = readdirSync(join(root, 'packages'))
  .map((name) => `packages/${name}/src`)
  .filter((path) => existsSync(join(root, path)))
  .sort();

const run = spawnSync(process.execPath, [join(root, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), '--config', '.dependency-cruiser.mjs', '--output-type', 'json', ...sources], {
  cwd: root,
  encoding: 'utf8',
  maxBuffer: 1 << 30,
});
if (run.status !== 0 && !run.stdout) {
  process.stderr.write(run.stderr);
  process.exit(run.status ?? 1);
}
const result = JSON.parse(run.stdout);
const report = await format(result, { outputType: 'err-long' });
process.stdout.write(report.output);

const folders = new Set();
for (const module of result.modules) {
  const parts = module.source.split('/');
  if (parts[0] !== 'packages' || parts[2] !== 'src') continue;
  for (let depth = 3; depth < parts.length; depth++) folders.add(`${parts.slice(0, depth).join('/')}/`);
}
let enforced = 0;
let reported = 0;
for (const folder of [...folders].sort()) {
  for (const cycle of folderCycles(result.modules, folder)) {
    const fails = ENFORCED.has(folder);
    if (fails) enforced++;
    else reported++;
    console.log(`\n  ${fails ? 'error' : 'warn'} folder cycle in ${folder}: ${cycle.folders.join(' ⇄ ')}`);
    for (const edge of cycle.edges) console.log(`      ${edge.from} → ${edge.to}`);
  }
}
const checked = `${folders.size} folders checked`;
if (enforced + reported === 0) console.log(`\n✔ no folder cycle (${checked})`);
else console.log(`\n${enforced > 0 ? 'x' : '‼'} ${enforced + reported} folder cycles (${enforced} errors, ${reported} warnings; ${checked}). Move the shared declaration below both folders.`);
process.exitCode = report.exitCode > 0 || enforced > 0 ? 1 : 0;
