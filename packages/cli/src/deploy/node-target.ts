import type { DeploymentAdapter, DeploymentBuildContext, DeploymentBuildResult } from '@lousho/core';
import { bundle, importPath, runtimeModule, writeEntry } from './bundle.js';
import { externalDependencies, freshDir, NATIVE_EXTERNALS, writeText } from './output.js';

// ESM output with CommonJS dependencies inside: give them the `require` they expect.
const REQUIRE_SHIM = "import { createRequire as __loushoCreateRequire } from 'node:module';\nconst require = __loushoCreateRequire(import.meta.url);";

/** Builds the standalone Node server into `context.outDir`: `server.mjs`, `package.json`. */
export async function buildNodeServer(context: DeploymentBuildContext): Promise<{ files: string[]; dependencies: Record<string, string> }> {
  await freshDir(context.outDir);
  const entry = await writeEntry(
    context,
    'server-entry.mjs',
    [
      `import * as agentModule from ${importPath(context.entry)};`,
      `import { startNodeServer } from ${importPath(runtimeModule('node-server'))};`,
      `await startNodeServer(agentModule, { basePath: ${JSON.stringify(context.basePath)} });`,
      '',
    ].join('\n'),
  );
  context.log(`bundling ${context.entry} for Node`);
  const metafile = await bundle(context, {
    entryPoints: [entry],
    outfile: `${context.outDir}/server.mjs`,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: [...context.conditions],
    external: NATIVE_EXTERNALS,
    banner: { js: REQUIRE_SHIM },
    sourcemap: context.sourcemap ? 'linked' : false,
  });
  const dependencies = await externalDependencies(metafile, context.entry);
  const manifest = { name: 'lousho-agent-server', private: true, type: 'module', scripts: { start: 'node server.mjs' }, engines: { node: '>=20.19' }, dependencies };
  const files = ['server.mjs', ...(context.sourcemap ? ['server.mjs.map'] : []), await writeText(context.outDir, 'package.json', `${JSON.stringify(manifest, null, 2)}\n`)];
  await import('node:fs/promises').then(({ rm }) => rm(`${context.outDir}/.lousho`, { recursive: true, force: true }));
  return { files, dependencies };
}

export const nodeAdapter: DeploymentAdapter = {
  name: 'node',
  description: 'A standalone Node server (server.mjs): the agent over HTTP, /healthz, graceful shutdown',
  async build(context): Promise<DeploymentBuildResult> {
    const { files, dependencies } = await buildNodeServer(context);
    const install = Object.keys(dependencies).length > 0 ? `cd ${context.outDir} && npm install --omit=dev && ` : `cd ${context.outDir} && `;
    return { files, instructions: `${install}PORT=3000 node server.mjs` };
  },
};
