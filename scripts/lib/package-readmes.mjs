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
