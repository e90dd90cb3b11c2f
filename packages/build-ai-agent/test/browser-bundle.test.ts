import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { expect, test } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The root entry, bundled for the browser as an app bundler would (code splitting on): what the
 * page loads up front must not contain the stdio transport (child processes). It may only sit in a
 * chunk that `import()` loads when a stdio server is connected.
 */
test('the root entry bundled for the browser loads no node:child_process; stdio is a lazy chunk', async () => {
  const outdir = resolve(root, 'node_modules/.cache/browser-bundle-test');
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, 'src/index.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@lousho/source'],
    outdir,
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Node built-ins stay imports, so the test can see which chunk asks for them.
    external: [...builtinModules, 'node:*'],
  });
  const metafile = result.metafile as Metafile;
  const text = new Map(result.outputFiles.map((file) => [file.path, file.text]));
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]!.entryPoint?.endsWith('src/index.ts'))!;

  // Everything the entry loads without an import(): itself and the chunks it imports statically.
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path) || !metafile.outputs[path]) return;
    upFront.add(path);
    for (const dependency of metafile.outputs[path]!.imports) if (dependency.kind === 'import-statement' && !dependency.external) visit(dependency.path);
  };
  visit(entry);
  const nodeImports = (path: string) => metafile.outputs[path]!.imports.filter((dependency) => dependency.external).map((dependency) => dependency.path);
  for (const path of upFront) {
    expect(nodeImports(path), path).toEqual([]);
    expect(text.get(resolve(root, path)), path).not.toMatch(/child_process/);
  }
  // The MCP client itself is in the entry (connectMcp works in a page over HTTP)...
  expect([...upFront].some((path) => Object.keys(metafile.outputs[path]!.inputs).some((input) => input.includes('client/streamableHttp')))).toBe(true);
  // ...and the stdio transport is in a chunk of its own, which is what asks for child_process.
  const lazy = Object.keys(metafile.outputs).filter((path) => !upFront.has(path) && path.endsWith('.js'));
  const stdio = lazy.filter((path) => Object.keys(metafile.outputs[path]!.inputs).some((input) => input.includes('client/stdio')));
  expect(stdio).toHaveLength(1);
  expect(lazy.flatMap(nodeImports)).toContain('child_process');
}, 60_000);
