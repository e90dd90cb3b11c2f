#!/usr/bin/env node
// `npm run deps`: the import rules (issue 46). One dependency-cruiser run over every package's src/
// gives both checks:
// - the rules of .dependency-cruiser.mjs, file by file (no-circular, contracts at the bottom, ...),
//   printed as dependency-cruiser's err-long report;
// - cycles between folders (scripts/lib/folder-cycles.mjs), which a file-level rule cannot see:
//   agent/a.ts -> tools/b.ts -> agent/c.ts is no file cycle, yet it ties the two folders together.
//   Every folder of every package's src/ is checked, at every depth (its subfolders and files
//   against each other), and any folder cycle fails the check, as a file cycle does.
// Exits non-zero on any rule violation or folder cycle.
import { spawnSync } from 'node:child_process';
import { readdirSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { format } from 'dependency-cruiser';
import { allFolderCycles, sourceFolders } from './lib/folder-cycles.mjs';

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

const checked = `${sourceFolders(result.modules).length} folders checked`;
const cycles = allFolderCycles(result.modules);
for (const cycle of cycles) {
  console.log(`\n  error folder cycle in ${cycle.root}: ${cycle.folders.join(' ⇄ ')}`);
  for (const edge of cycle.edges) console.log(`      ${edge.from} → ${edge.to}`);
}
if (cycles.length === 0) console.log(`\n✔ no folder cycle (${checked})`);
else console.log(`\nx ${cycles.length} folder cycle${cycles.length === 1 ? '' : 's'} (${checked}). Move the shared declaration below both folders.`);
process.exitCode = report.exitCode > 0 || cycles.length > 0 ? 1 : 0;
