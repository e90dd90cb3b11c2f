import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, lousho, tempDir } from './helpers.js';

/** A project folder with an agent module and another source file under src/. */
async function project(): Promise<string> {
  const dir = await tempDir();
  await mkdir(join(dir, 'src'), { recursive: true });
  await writeFile(join(dir, 'src/agent.ts'), "export default {};\n");
  await writeFile(join(dir, 'src/tools.ts'), 'export const tools = [];\n');
  await mkdir(join(dir, 'lib'), { recursive: true });
  await writeFile(join(dir, 'lib/helper.ts'), 'export const helper = 1;\n');
  return dir;
}

const build = (args: string[], cwd?: string) => lousho(['build', ...args, '--conditions', '@lousho/source'], cwd);

describe('lousho build --out: never a folder with sources in it', () => {
  it('refuses the folder that holds the entry, a folder above it, and one that holds any other source, deleting nothing', async () => {
    const dir = await project();
    for (const [out, why] of [
      ['src', 'it holds the agent module src/agent.ts'],
      ['lib', 'it holds helper.ts, which lousho build did not write'],
      ['.', 'it is the project folder or a folder above it'],
    ] as const) {
      const result = await build(['src/agent.ts', '--out', out], dir);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('LOUSHO_DEPLOY_INVALID');
      expect(result.stderr).toContain(why);
    }
    // An entry outside the project: a folder above it is refused too.
    const app = join(dir, 'app');
    await mkdir(app);
    const above = await build(['../src/agent.ts', '--out', '..'], app);
    expect(above.stderr).toContain('LOUSHO_DEPLOY_INVALID');
    for (const file of ['src/agent.ts', 'src/tools.ts', 'lib/helper.ts']) expect(existsSync(join(dir, file))).toBe(true);
  });

  it('builds into its own folder again, but not once someone put a file of theirs there', async () => {
    const out = join(await tempDir(), 'server');
    expect((await build([fixture('agent.ts'), '--out', out])).code).toBe(0);
    expect((await build([fixture('agent.ts'), '--out', out])).code).toBe(0);
    await writeFile(join(out, 'notes.md'), 'mine\n');
    const third = await build([fixture('agent.ts'), '--out', out]);
    expect(third.stderr).toContain('it holds notes.md, which lousho build did not write');
    expect(await readFile(join(out, 'notes.md'), 'utf8')).toBe('mine\n');
  }, 60_000);
});

describe('lousho build: source maps', () => {
  it('writes none by default; --sourcemap writes them; the Docker image never gets one', async () => {
    const plain = join(await tempDir(), 'node');
    const result = await build([fixture('agent.ts'), '--out', plain]);
    expect(result.code).toBe(0);
    expect(existsSync(join(plain, 'server.mjs.map'))).toBe(false);
    expect(await readFile(join(plain, 'server.mjs'), 'utf8')).not.toContain('sourceMappingURL');
    expect(result.stdout).not.toContain('server.mjs.map');

    const mapped = join(await tempDir(), 'node');
    expect((await build([fixture('agent.ts'), '--out', mapped, '--sourcemap'])).code).toBe(0);
    expect(existsSync(join(mapped, 'server.mjs.map'))).toBe(true);

    const image = join(await tempDir(), 'image');
    expect((await build([fixture('agent.ts'), '--target', 'docker', '--out', image, '--sourcemap'])).code).toBe(0);
    const dockerfile = await readFile(join(image, 'Dockerfile'), 'utf8');
    expect(dockerfile).not.toContain('.map');
    expect((await readFile(join(image, '.dockerignore'), 'utf8')).split('\n')).toContain('*.map');
  }, 90_000);
});

describe('lousho build --adapter', () => {
  it('gets an output folder that exists', async () => {
    const out = join(await tempDir(), 'nested/bare');
    const result = await build([fixture('agent.ts'), '--adapter', fixture('bare-adapter.mjs'), '--target', 'bare', '--out', out]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(await readFile(join(out, 'built.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('lousho build --target node: dependencies', () => {
  it('never lists a Node built-in (bare or node:) as an npm dependency, even with a package of that name installed', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'agent.mjs'), "import { Buffer } from 'buffer';\nimport { EventEmitter } from 'events';\nexport const size = Buffer.byteLength('x') + EventEmitter.defaultMaxListeners;\nexport default {};\n");
    for (const name of ['buffer', 'events']) {
      await mkdir(join(dir, 'node_modules', name), { recursive: true });
      await writeFile(join(dir, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '6.0.3', main: 'index.js' }));
      await writeFile(join(dir, 'node_modules', name, 'index.js'), 'module.exports = {};\n');
    }
    const out = join(dir, 'dist');
    const result = await build(['agent.mjs', '--out', out], dir);
    expect(result.code).toBe(0);
    const manifest = JSON.parse(await readFile(join(out, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(manifest.dependencies).toEqual({});
  }, 60_000);
});
