import { describe, expect, it } from 'vitest';
import { allFolderCycles, folderCycles, folderOf, sourceFolders } from '../lib/folder-cycles.mjs';

/** A dependency-cruiser `modules` list from `from: [to, ...]` pairs (paths under src/). */
function modules(graph: Record<string, string[]>) {
  return Object.entries(graph).map(([source, targets]) => ({
    source: `src/${source}`,
    dependencies: targets.map((target) => ({ resolved: target.startsWith('node_modules/') ? target : `src/${target}` })),
  }));
}

describe('folderCycles', () => {
  it('finds a cycle between folders that no file cycle shows', () => {
    const found = folderCycles(modules({ 'agent/a.ts': ['tools/b.ts'], 'tools/b.ts': ['agent/c.ts'], 'agent/c.ts': [] }), 'src/');
    expect(found).toEqual([{ folders: ['agent', 'tools'], edges: [{ from: 'agent/a.ts', to: 'tools/b.ts' }, { from: 'tools/b.ts', to: 'agent/c.ts' }] }]);
  });

  it('reports nothing when imports point one way, and ignores imports outside the root and within a folder', () => {
    const graph = modules({ 'agent/a.ts': ['tools/b.ts', 'agent/c.ts', 'node_modules/zod/index.js'], 'agent/c.ts': ['agent/a.ts'], 'tools/b.ts': ['contracts/t.ts'], 'contracts/t.ts': [] });
    expect(folderCycles(graph, 'src/')).toEqual([]);
  });

  it('collapses subfolders, and a file directly under the root stands for itself', () => {
    const graph = modules({ 'index.ts': ['agent/x/a.ts'], 'agent/x/a.ts': ['errors.ts'], 'errors.ts': ['agent/b.ts'], 'agent/b.ts': [] });
    expect(folderCycles(graph, 'src/').map((cycle: { folders: string[] }) => cycle.folders)).toEqual([['agent', 'errors.ts']]);
    expect(folderOf('src/agent/x/a.ts', 'src/')).toBe('agent');
    expect(folderOf('src/errors.ts', 'src/')).toBe('errors.ts');
    expect(folderOf('lib/a.ts', 'src/')).toBeUndefined();
  });

  it('finds each strongly connected group once, however long the chain', () => {
    const chain: Record<string, string[]> = {};
    for (let i = 0; i < 5000; i++) chain[`f${i}/m.ts`] = [`f${(i + 1) % 5000}/m.ts`];
    chain['lone/m.ts'] = ['f0/m.ts'];
    const found = folderCycles(modules(chain), 'src/');
    expect(found).toHaveLength(1);
    expect(found[0].folders).toHaveLength(5000);
  });
});

/** A dependency-cruiser `modules` list from `from: [to, ...]` pairs (paths from the repository root). */
function repoModules(graph: Record<string, string[]>) {
  return Object.entries(graph).map(([source, targets]) => ({ source, dependencies: targets.map((resolved) => ({ resolved })) }));
}

describe('allFolderCycles (what npm run deps fails on)', () => {
  it('checks every folder of every package, at every depth, not only the top of core', () => {
    const graph = repoModules({
      // packages/bench/src/: a root file and a folder importing each other.
      'packages/bench/src/pipeline.bench.ts': ['packages/bench/src/load/children.ts'],
      'packages/bench/src/load/children.ts': [],
      'packages/bench/src/load/heap.ts': ['packages/bench/src/pipeline.bench.ts'],
      // packages/core/src/agent/: two subfolders, a level below core's top folders.
      'packages/core/src/agent/stages/a.ts': ['packages/core/src/agent/subagents/b.ts'],
      'packages/core/src/agent/subagents/b.ts': [],
      'packages/core/src/agent/subagents/c.ts': ['packages/core/src/agent/stages/d.ts'],
      'packages/core/src/agent/stages/d.ts': [],
      // packages/workspace/src/: one way only, no cycle.
      'packages/workspace/src/node-workspace.ts': ['packages/workspace/src/sandbox/run.ts', 'packages/workspace/src/workspace/types.ts'],
      'packages/workspace/src/sandbox/run.ts': ['packages/workspace/src/workspace/types.ts'],
      'packages/workspace/src/workspace/types.ts': [],
    });
    expect(sourceFolders(graph)).toEqual([
      'packages/bench/src/',
      'packages/bench/src/load/',
      'packages/core/src/',
      'packages/core/src/agent/',
      'packages/core/src/agent/stages/',
      'packages/core/src/agent/subagents/',
      'packages/workspace/src/',
      'packages/workspace/src/sandbox/',
      'packages/workspace/src/workspace/',
    ]);
    expect(allFolderCycles(graph).map(({ root, folders }: { root: string; folders: string[] }) => ({ root, folders }))).toEqual([
      { root: 'packages/bench/src/', folders: ['load', 'pipeline.bench.ts'] },
      { root: 'packages/core/src/agent/', folders: ['stages', 'subagents'] },
    ]);
  });

  it('finds nothing in a tree whose imports all point one way', () => {
    const graph = repoModules({
      'packages/core/src/agent/run.ts': ['packages/core/src/agent/stages/a.ts', 'packages/core/src/contracts/t.ts'],
      'packages/core/src/agent/stages/a.ts': ['packages/core/src/agent/call.ts', 'packages/core/src/contracts/t.ts'],
      'packages/core/src/agent/call.ts': ['packages/core/src/contracts/t.ts'],
      'packages/core/src/contracts/t.ts': [],
    });
    expect(allFolderCycles(graph)).toEqual([]);
  });
});
