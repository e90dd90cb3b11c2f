import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { getAdapter, listAdapters, registerAdapter, type DeploymentAdapter } from '@lousho/core';
import { registerBuiltinAdapters } from '../src/index.js';
import { fixture, lousho, tempDir } from './helpers.js';

describe('deployment adapter registry', () => {
  it('has the built-in targets once the CLI registers them', () => {
    registerBuiltinAdapters();
    registerBuiltinAdapters();
    expect(listAdapters().map((a) => a.name)).toEqual(expect.arrayContaining(['node', 'docker', 'workers']));
    expect(getAdapter('node')?.description).toMatch(/standalone Node server/);
    expect(getAdapter('nope')).toBeUndefined();
  });

  it('registerAdapter refuses duplicates unless replace, and bad adapters', () => {
    const mine: DeploymentAdapter = { name: 'test-dup', description: 'x', build: async () => ({ files: [], instructions: '' }) };
    registerAdapter(mine);
    expect(() => registerAdapter(mine)).toThrow(expect.objectContaining({ code: 'LOUSHO_INVALID_CONFIG', message: expect.stringContaining("'test-dup' is already registered") }));
    const other = { ...mine, description: 'y' };
    registerAdapter(other, { replace: true });
    expect(getAdapter('test-dup')).toBe(other);
    expect(() => registerAdapter({ ...mine, name: 'Has Space' })).toThrow(/not usable/);
    expect(() => registerAdapter({ name: 'x' } as never)).toThrow(/needs \{ name, description, build/);
  });

  it('lousho build --adapter loads a module that registers a target, then builds with it', async () => {
    const out = join(await tempDir(), 'echo');
    const result = await lousho(['build', fixture('agent.ts'), '--adapter', fixture('echo-adapter.mjs'), '--target', 'echo', '--out', out, '--base-path', '/agent/']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Next: cat entry.txt');
    expect(await readFile(join(out, 'entry.txt'), 'utf8')).toBe(`${fixture('agent.ts')}\n/agent\n`);
  });

  it('an unknown target, a missing module and a dangerous --out are errors with codes; exit 1', async () => {
    const unknown = await lousho(['build', fixture('agent.ts'), '--target', 'lambda']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/LOUSHO_DEPLOY_INVALID: No deployment target named 'lambda'/);
    expect(unknown.stderr).toMatch(/hint: Use one of node, docker, workers/);
    const missing = await lousho(['build', 'nope.ts']);
    expect(missing.stderr).toMatch(/nope\.ts does not exist/);
    const none = await lousho(['build'], await tempDir());
    expect(none.stderr).toMatch(/No agent module given/);
    const root = await lousho(['build', fixture('agent.ts'), '--out', '..']);
    expect(root.code).toBe(1);
    expect(root.stderr).toMatch(/Refusing to use/);
  });

  it('lousho --help lists build; lousho build --help lists the targets', async () => {
    expect((await lousho(['--help'])).stdout).toMatch(/build \[options\] \[entry\]/);
    const help = await lousho(['build', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/workers\s+A Fetch-handler bundle/);
    expect((await lousho(['deploy'])).code).toBe(1);
  });
});
