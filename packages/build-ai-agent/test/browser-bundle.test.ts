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
    // Loading child_process, in any form (NodeWorkspace and SubprocessSandbox name it only as a
    // string for process.getBuiltinModule, which is not a load a bundler follows).
    expect(text.get(resolve(root, path)), path).not.toMatch(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)["'](?:node:)?child_process["']/);
  }
  // The MCP client itself is in the entry (connectMcp works in a page over HTTP)...
  expect([...upFront].some((path) => Object.keys(metafile.outputs[path]!.inputs).some((input) => input.includes('client/streamableHttp')))).toBe(true);
  // ...and the stdio transport is in a chunk of its own, which is what asks for child_process.
  const lazy = Object.keys(metafile.outputs).filter((path) => !upFront.has(path) && path.endsWith('.js'));
  const stdio = lazy.filter((path) => Object.keys(metafile.outputs[path]!.inputs).some((input) => input.includes('client/stdio')));
  expect(stdio).toHaveLength(1);
  expect(lazy.flatMap(nodeImports)).toContain('child_process');
}, 60_000);

/**
 * The workspace parts that need Node (NodeWorkspace, SubprocessSandbox) are exported from the root,
 * yet a browser bundle of the root entry imports no `node:` module at all: they reach Node's
 * built-ins through process.getBuiltinModule on first use.
 */
test('the root entry bundled for the browser, without code splitting, imports no node: module', async () => {
  const result = await build({
    absWorkingDir: root,
    stdin: { contents: "export { NodeWorkspace, SubprocessSandbox, MemoryWorkspace, createFsTools, createShellTool, createCommandGuardrail, secretScanGuardrail } from './src/index.ts';", resolveDir: root, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['@lousho/source'],
    write: false,
    metafile: true,
    logLevel: 'silent',
    // Node built-ins stay imports, so any that is reached shows up in the metafile.
    external: [...builtinModules, 'node:*'],
  });
  const metafile = result.metafile as Metafile;
  // Every module the bundle holds, with the Node built-ins it imports.
  const nodeImports = Object.entries(metafile.inputs).flatMap(([input, { imports }]) => imports.filter((i) => i.external).map((i) => `${input} -> ${i.path}`));
  const ours = Object.keys(metafile.inputs).filter((input) => /core\/src\/(?:workspace|sandbox|runtime|guardrails)\//.test(input));
  expect(ours.some((input) => input.endsWith('node-workspace.ts'))).toBe(true);
  expect(ours.some((input) => input.endsWith('subprocess-sandbox.ts'))).toBe(true);
  // No source of ours imports a Node module; the only ones that do are the MCP SDK's stdio transport
  // and its dependencies, which the root loads lazily (see the test above).
  expect(nodeImports.filter((line) => !line.includes('node_modules/'))).toEqual([]);
  expect(nodeImports.length).toBeGreaterThan(0);
  const bundle = result.outputFiles[0]!.text;
  expect(bundle).toContain('getBuiltinModule');
}, 60_000);
