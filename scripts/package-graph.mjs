// Checks the package drawing in docs/architecture.md against the package.json files of packages/*
// and apps/* (exit 1 with the differences); `--write` regenerates it. scripts/test runs the check.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compareDrawing, drawGraph, drawingIn, listPackages, packageEdges, withDrawing } from './lib/package-graph.mjs';

const root = resolve(import.meta.dirname, '..');
const doc = join(root, 'docs/architecture.md');
const packages = listPackages(root);
const edges = packageEdges(packages);
const text = readFileSync(doc, 'utf8');

if (process.argv.includes('--write')) {
  writeFileSync(doc, withDrawing(text, drawGraph(packages, edges)));
  console.log(`docs/architecture.md: ${packages.length} packages, ${edges.runtime.length} runtime and ${edges.dev.length} dev edges drawn.`);
} else {
  const drawing = drawingIn(text);
  const problems = drawing === undefined ? ['docs/architecture.md has no package drawing (markers missing)'] : compareDrawing(drawing, packages, edges);
  if (problems.length > 0) {
    console.error(`docs/architecture.md's package drawing disagrees with the package.json files:\n  ${problems.join('\n  ')}\nRun: node scripts/package-graph.mjs --write`);
    process.exit(1);
  }
  console.log(`docs/architecture.md draws all ${packages.length} packages and their ${edges.runtime.length + edges.dev.length} edges.`);
}
