import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { PLAIN_TSC, planTypecheck, typecheckWorkspace } from '../lib/typecheck.mjs';

const repo = resolve(import.meta.dirname, '../..');

// Fixture workspaces live under the repository's node_modules, so that `types: ["node"]` finds
// @types/node the way a package of this repository does.
const fixtures: string[] = [];
afterAll(() => {
  for (const dir of fixtures) rmSync(dir, { recursive: true, force: true });
});

type Files = Record<string, string>;
function workspace(files: Files): string {
  mkdirSync(join(repo, 'node_modules/.cache'), { recursive: true });
  const root = mkdtempSync(join(repo, 'node_modules/.cache/typecheck-test-'));
  fixtures.push(root);
  const all: Files = {
    'pnpm-workspace.yaml': 'packages:\n  - packages/*\n  - "examples"\n\nallowBuilds:\n  esbuild: false\n',
    'tsconfig.base.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', skipLibCheck: true } }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const manifest = (name: string, typecheck?: string): string => JSON.stringify({ name, type: 'module', scripts: typecheck === undefined ? {} : { typecheck } });
const plainConfig = (include: string[], extra: object = {}): string =>
  JSON.stringify({ extends: '../../tsconfig.base.json', compilerOptions: { noEmit: true, types: ['node'], ...extra }, include });

async function typecheck(root: string): Promise<{ code: number; output: string }> {
  const out = new PassThrough();
  let output = '';
  out.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const code = await typecheckWorkspace({ root, out, parallel: 2 });
  return { code, output };
}

describe('pnpm typecheck', () => {
  it('puts the packages with the base options in one program and runs the others’ own script', () => {
    const root = workspace({
      'packages/plain/package.json': manifest('plain', PLAIN_TSC),
      'packages/plain/tsconfig.json': plainConfig(['src', 'test']),
      'packages/jsx/package.json': manifest('jsx', PLAIN_TSC),
      'packages/jsx/tsconfig.json': plainConfig(['src'], { jsx: 'react-jsx' }),
      'packages/vue-like/package.json': manifest('vue-like', 'vue-tsc -p tsconfig.json --noEmit'),
      'packages/vue-like/tsconfig.json': plainConfig(['src']),
      'packages/untyped/package.json': manifest('untyped'),
      'packages/not-a-package/readme.md': 'no package.json here',
      // tsconfig.json may hold comments.
      'examples/package.json': manifest('examples', PLAIN_TSC),
      'examples/tsconfig.json': `{\n  // the examples\n  "extends": "../tsconfig.base.json",\n  "compilerOptions": { "noEmit": true, "types": ["node"] },\n  "include": ["*.ts", "test"]\n}\n`,
    });
    const plan = planTypecheck(root);
    expect(plan.shared.map((pkg) => [pkg.name, pkg.include])).toEqual([
      ['plain', ['packages/plain/src', 'packages/plain/test']],
      ['examples', ['examples/*.ts', 'examples/test']],
    ]);
    expect(plan.own.map((pkg) => pkg.name).sort()).toEqual(['jsx', 'vue-like']);
  });

  it('fails on a type error in any package of the shared program, a type test’s included, and names it', async () => {
    const root = workspace({
      'packages/a/package.json': manifest('a', PLAIN_TSC),
      'packages/a/tsconfig.json': plainConfig(['src']),
      'packages/a/src/index.ts': 'export const answer: number = 42;\n',
      'packages/b/package.json': manifest('b', PLAIN_TSC),
      'packages/b/tsconfig.json': plainConfig(['src', 'test']),
      'packages/b/src/index.ts': "import { readFileSync } from 'node:fs';\nexport const read = readFileSync;\n",
      'packages/b/test/types.test-d.ts': "type Equal<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;\nexport const check: Equal<string, number> = true;\n",
      'packages/own/package.json': manifest('own', `node -e "console.log('own check ran')"`),
    });
    const failed = await typecheck(root);
    expect(failed.code).toBe(1);
    expect(failed.output).toContain(`${relative(root, join(root, 'packages/b/test/types.test-d.ts'))}(2,14): error TS2322`);
    expect(failed.output).toMatch(/typecheck: 2 packages in one program FAILED/);
    expect(failed.output).toContain('own check ran');
    expect(failed.output).toMatch(/typecheck: own passed/);

    writeFileSync(join(root, 'packages/b/test/types.test-d.ts'), 'export const check: true = true;\n');
    const passed = await typecheck(root);
    expect(passed).toMatchObject({ code: 0 });
    expect(passed.output).toMatch(/typecheck: 2 packages in one program passed/);
  }, 60_000);

  it('fails when a package’s own check fails', async () => {
    const root = workspace({
      'packages/own/package.json': manifest('own', 'node -e "process.exit(3)"'),
    });
    const result = await typecheck(root);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(/typecheck: own FAILED/);
  }, 60_000);

  it('covers every package of this repository that has a typecheck script', () => {
    const plan = planTypecheck(repo);
    const names = [...plan.shared, ...plan.own].map((pkg) => pkg.name);
    expect(names).toEqual(expect.arrayContaining(['@lousho/core', '@lousho/flows', '@lousho/react', '@lousho/svelte', '@lousho/vue', 'sveltekit-demo']));
    expect(plan.shared.map((pkg) => pkg.name)).toContain('@lousho/core');
    // vue-tsc checks the .vue fixtures its type tests import.
    expect(plan.own.map((pkg) => pkg.name)).toContain('@lousho/vue');
  });
});
