// Every package's README says what it holds and what it may import (issue 46), under these two
// headings, so a reader finds them in the same place in every package of packages/ and apps/.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listPackages } from './package-graph.mjs';

export const REQUIRED_SECTIONS = ['## What it holds', '## What it may import'];

/** The packages whose README is missing or lacks a required section, as sentences (empty when all have them). */
export function readmeProblems(root) {
  return listPackages(root).flatMap(({ folder }) => {
    const path = join(root, folder, 'README.md');
    if (!existsSync(path)) return [`${folder} has no README.md`];
    const headings = new Set(readFileSync(path, 'utf8').split('\n').map((line) => line.trimEnd()));
    return REQUIRED_SECTIONS.filter((section) => !headings.has(section)).map((section) => `${folder}/README.md has no "${section}" section`);
  });
}

/**
 * The root README's layout table against the packages: one row per package folder, naming the
 * package (or `private`), and no row for a folder that is not a package. Problems as sentences.
 */
export function layoutTableProblems(root) {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const section = readme.split('\n## Layout\n')[1]?.split('\n## ')[0] ?? '';
  const rows = new Map();
  for (const line of section.split('\n')) {
    const row = /^\| `([^`]+)` \| (?:`([^`]+)`|private) \|/.exec(line);
    if (row) rows.set(row[1], row[2] ?? 'private');
  }
  const problems = [];
  const packages = listPackages(root);
  for (const { folder, name, manifest } of packages) {
    const expected = manifest.private ? 'private' : name;
    if (!rows.has(folder)) problems.push(`README.md's layout table has no row for ${folder}`);
    else if (rows.get(folder) !== expected) problems.push(`README.md's layout row for ${folder} says ${rows.get(folder)}, not ${expected}`);
  }
  const folders = new Set(packages.map((pkg) => pkg.folder));
  for (const folder of rows.keys()) {
    if (!folders.has(folder) && !existsSync(join(root, folder, 'package.json'))) problems.push(`README.md's layout table lists ${folder}, which is not a package`);
  }
  return problems;
}
