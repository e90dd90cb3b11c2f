import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { expect, test } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The root entry, bundled as a browser app or an edge worker would be (the `browser`, `worker` and
 * `workerd` conditions, no Node built-in allowed, nothing marked external): it must build, and hold
 * no Node built-in anywhere, not even in a lazy chunk. `@lousho/mcp` maps its stdio transport to a
 * stand-in for those conditions, so the SDK's Node-only stdio client is never reached.
 */
test.each([
  ['a browser app (code splitting)', ['@lousho/source'], true],
  ['an edge worker (one file)', ['@lousho/source', 'worker', 'workerd'], false],
])('the root entry bundles for %s with no Node built-in', async (_name, conditions, splitting) => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, 'src/index.ts')],
    bundle: true,
    splitting,
    format: 'esm',
    platform: 'browser',
    conditions,
    ...(splitting ? { outdir: resolve(root, 'node_modules/.cache/browser-bundle-test') } : { outfile: resolve(root, 'node_modules/.cache/worker-bundle-test.js') }),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const metafile = result.metafile as Metafile;
  const inputs = Object.keys(metafile.inputs);
  expect(inputs.some((input) => input.includes('client/stdio'))).toBe(false);
  expect(inputs.some((input) => input.includes('stdio-unavailable'))).toBe(true);
  // No load of a Node built-in, in any form a bundler or a runtime follows (import, export from,
  // dynamic import, require). NodeWorkspace and SubprocessSandbox are in the entry, and name theirs
  // only for process.getBuiltinModule on first use, which a browser lacks (they then throw
  // LOUSHO_UNSUPPORTED_RUNTIME): that is a lookup, not a load.
  for (const file of result.outputFiles) expect(file.text, file.path).not.toMatch(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](node:)?(child_process|fs|fs\/promises|net|path|process)["']/);
  expect(inputs.some((input) => input.endsWith('workspace/src/node-workspace.ts'))).toBe(true);
  // File-reading features (skills folders, spec files, file memory) get the stand-in that says they need Node.
  expect(inputs.some((input) => input.includes('node-files-unavailable'))).toBe(true);
  expect(inputs.some((input) => input.includes('node/skill-folder') || input.includes('node/spec-file'))).toBe(false);
  // The MCP client itself is there: connectMcp works in a page or a worker over HTTP.
  expect(inputs.some((input) => input.includes('client/streamableHttp'))).toBe(true);
}, 60_000);

test('in Node the stdio transport is the real one, in a chunk loaded only when a stdio server connects', async () => {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, 'src/index.ts')],
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    conditions: ['@lousho/source'],
    outdir: resolve(root, 'node_modules/.cache/node-bundle-test'),
    write: false,
    metafile: true,
    logLevel: 'silent',
    external: [...builtinModules, 'node:*'],
  });
  const metafile = result.metafile as Metafile;
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]!.entryPoint?.endsWith('src/index.ts'))!;
  const upFront = new Set<string>();
  const visit = (path: string) => {
    if (upFront.has(path) || !metafile.outputs[path]) return;
    upFront.add(path);
    for (const dependency of metafile.outputs[path]!.imports) if (dependency.kind === 'import-statement' && !dependency.external) visit(dependency.path);
  };
  visit(entry);
  const holdsStdio = (path: string) => Object.keys(metafile.outputs[path]!.inputs).some((input) => input.includes('client/stdio'));
  expect([...upFront].some(holdsStdio)).toBe(false);
  expect(Object.keys(metafile.outputs).filter((path) => !upFront.has(path) && holdsStdio(path))).toHaveLength(1);
}, 60_000);

test('a server bundle of the root (one file, as Vite SSR or a serverless build makes it) still reads skill folders and spec files', async () => {
  const out = resolve(root, 'node_modules/.cache/server-bundle-test');
  await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, 'src/index.ts')],
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: ['@lousho/source'],
    outfile: resolve(out, 'server.mjs'),
    banner: { js: "import { createRequire as __lousho_require } from 'node:module'; const require = __lousho_require(import.meta.url);" },
    logLevel: 'silent',
    external: [...builtinModules, 'node:*', 'better-sqlite3', 'pg'],
  });
  const dir = await mkdtemp(join(tmpdir(), 'lousho-server-bundle-'));
  try {
    await mkdir(join(dir, 'skills', 'refunds'), { recursive: true });
    await writeFile(join(dir, 'skills', 'refunds', 'SKILL.md'), '---\nname: refunds\ndescription: How refunds work\n---\nFive days.\n');
    await writeFile(join(dir, 'agent.yaml'), 'name: support\nmodel: gpt-4o-mini\nskills: ./skills\n');
    const bundled = (await import(pathToFileURL(resolve(out, 'server.mjs')).href)) as typeof import('@lousho/build-ai-agent');
    expect((await bundled.loadSkills(join(dir, 'skills'))).map((skill) => skill.name)).toEqual(['refunds']);
    expect(await bundled.loadSpec(join(dir, 'agent.yaml'))).toEqual({ name: 'support', model: 'gpt-4o-mini', skills: join(dir, 'skills') });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);
