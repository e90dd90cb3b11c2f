import { describe, expect, it } from 'vitest';
import { folderCycles, folderOf } from '../lib/folder-cycles.mjs';

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
