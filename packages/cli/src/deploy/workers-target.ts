import { rm } from 'node:fs/promises';
import type { DeploymentAdapter, DeploymentBuildResult } from '@lousho/core';
import { deployError } from '../errors.js';
import { bundle, importPath, runtimeModule, writeEntry } from './bundle.js';
import { freshDir, writeText } from './output.js';

/** Export conditions of edge runtimes, in the order bundlers for them use. */
export const WORKER_CONDITIONS = ['workerd', 'worker', 'browser'];

export const workersAdapter: DeploymentAdapter = {
  name: 'workers',
  description: 'A Fetch-handler bundle for edge runtimes (Cloudflare Workers, Deno Deploy): no Node built-ins',
  async build(context): Promise<DeploymentBuildResult> {
    await freshDir(context.outDir);
    const entry = await writeEntry(
      context,
      'worker-entry.mjs',
      [
        `import * as agentModule from ${importPath(context.entry)};`,
        `import { createWorker } from ${importPath(runtimeModule('worker'))};`,
        `export default createWorker(agentModule, { basePath: ${JSON.stringify(context.basePath)} });`,
        '',
      ].join('\n'),
    );
    context.log(`bundling ${context.entry} for edge runtimes (conditions: ${WORKER_CONDITIONS.join(', ')})`);
    // platform 'browser' makes any Node built-in a resolve error: that is the check.
    const metafile = await bundle(context, {
      entryPoints: [entry],
      outfile: `${context.outDir}/worker.mjs`,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      conditions: [...WORKER_CONDITIONS, ...context.conditions],
      mainFields: ['browser', 'module', 'main'],
      sourcemap: context.sourcemap ? 'linked' : false,
    });
    const external = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((imported) => imported.external).map((imported) => imported.path));
    if (external.length > 0) {
      throw deployError('LOUSHO_DEPLOY_NODE_BUILTIN', `The workers bundle still imports ${external.join(', ')}.`, 'A worker bundle must be self-contained: remove these imports.');
    }
    await rm(`${context.outDir}/.lousho`, { recursive: true, force: true });
    const wrangler = `# Cloudflare Workers: npx wrangler deploy\nname = "lousho-agent"\nmain = "worker.mjs"\ncompatibility_date = "2025-06-01"\n`;
    return {
      files: ['worker.mjs', ...(context.sourcemap ? ['worker.mjs.map'] : []), await writeText(context.outDir, 'wrangler.toml', wrangler)],
      instructions: `cd ${context.outDir} && npx wrangler deploy   (or import worker.mjs's default { fetch } in any Fetch runtime)`,
    };
  },
};
