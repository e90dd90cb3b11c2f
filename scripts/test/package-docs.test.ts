import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareDrawing, drawGraph, drawingIn, listPackages, packageEdges } from '../lib/package-graph.mjs';
import { layoutTableProblems, readmeProblems } from '../lib/package-readmes.mjs';

const repo = resolve(import.meta.dirname, '../..');
const packages = listPackages(repo);
const edges = packageEdges(packages);

describe('docs/architecture.md draws the packages as their package.json files declare them', () => {
  it('lists every package and every edge, and nothing else (fix: node scripts/package-graph.mjs --write)', () => {
    const drawing = drawingIn(readFileSync(resolve(repo, 'docs/architecture.md'), 'utf8'));
    expect(drawing).toBeDefined();
    expect(compareDrawing(drawing!, packages, edges)).toEqual([]);
  });

  it('names an edge the package.json files lack, and one the drawing misses', () => {
    const drawing = drawGraph(packages, edges);
    const edited = drawing.replace(/\n {2}react --> client\n/, '\n').replace(/\n```$/, '\n  client --> react\n```');
    expect(compareDrawing(edited, packages, edges)).toEqual([
      'missing runtime (-->) edge @lousho/react -> @lousho/client',
      'runtime (-->) edge @lousho/client -> @lousho/react is not in the package.json files',
    ]);
  });

  it('names a dotted (test-only) edge drawn as a solid one', () => {
    const [from, to] = edges.dev[0]!;
    const solid = drawGraph(packages, { runtime: [...edges.runtime, [from, to]], dev: edges.dev.slice(1) });
    expect(compareDrawing(solid, packages, edges).sort()).toEqual([
      `missing dev (-.->) edge ${from} -> ${to}`,
      `runtime (-->) edge ${from} -> ${to} is not in the package.json files`,
    ]);
  });
});

describe('package READMEs', () => {
  it('every package in packages/ and apps/ has a README saying what it holds and what it may import', () => {
    expect(readmeProblems(repo)).toEqual([]);
  });
});

describe("the root README's layout table", () => {
  it('has one row per package in packages/ and apps/, naming it (or "private")', () => {
    expect(layoutTableProblems(repo)).toEqual([]);
  });
});
