import { existsSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { getAdapter, listAdapters, registerAdapter, type DeploymentAdapter } from '@lousho/core';
import { registerBuiltinAdapters } from '../deploy/builtin.js';
import { markOutDir, prepareOutDir } from '../deploy/out-dir.js';
import { deployError } from '../errors.js';
import type { CliIo } from '../io.js';

const DEFAULT_ENTRIES = ['src/agent.ts', 'src/agent.js', 'src/agent.mjs', 'agent.ts', 'agent.js', 'agent.mjs'];

interface BuildFlags {
  target: string;
  out?: string;
  basePath: string;
  adapter: string[];
  conditions?: string;
  sourcemap?: boolean;
}

/** `lousho build [entry] --target <name>`: runs the deployment adapter registered under that name. */
export function buildCommand(io: CliIo): Command {
  registerBuiltinAdapters();
  return new Command('build')
    .description('Build the agent module for a deployment target')
    .argument('[entry]', `the agent module (default: the first of ${DEFAULT_ENTRIES.join(', ')})`)
    .option('-t, --target <name>', `deployment target (${listAdapters().map((a) => a.name).join(', ')}, or one --adapter registers)`, 'node')
    .option('-o, --out <dir>', 'output directory (default: .lousho/<target>)')
    .option('--base-path <path>', 'where the agent HTTP handler is mounted', '/api/agent')
    .option('--adapter <module>', 'a module that registers a deployment adapter (repeatable)', (value: string, all: string[]) => [...all, value], [] as string[])
    .option('--conditions <list>', 'extra package.json export conditions, comma-separated')
    .option('--sourcemap', 'also write source maps (they hold the full sources; off by default, and never copied into a Docker image)')
    .addHelpText('after', () => `\nTargets:\n${listAdapters().map((a) => `  ${a.name.padEnd(10)} ${a.description}`).join('\n')}\n`)
    .action(async (entryArg: string | undefined, flags: BuildFlags) => {
      const cwd = io.cwd;
      for (const module of flags.adapter) await loadAdapterModule(resolve(cwd, module));
      const adapter = getAdapter(flags.target);
      if (!adapter) {
        throw deployError('LOUSHO_DEPLOY_INVALID', `No deployment target named '${flags.target}'.`, `Use one of ${listAdapters().map((a) => a.name).join(', ')}, or register yours with --adapter ./my-adapter.js.`);
      }
      const entry = findEntry(cwd, entryArg);
      const outDir = resolve(cwd, flags.out ?? join('.lousho', adapter.name));
      // The output directory is emptied first: never the project, its sources, or a folder above them.
      await prepareOutDir(outDir, { cwd, entry });
      const basePath = flags.basePath === '/' ? '' : flags.basePath.replace(/\/+$/, '');
      const conditions = flags.conditions ? flags.conditions.split(',').map((c) => c.trim()).filter(Boolean) : [];
      const result = await adapter.build({ entry, outDir, cwd, basePath, conditions, sourcemap: flags.sourcemap === true, log: (line) => io.stdout(`  ${line}\n`) });
      await markOutDir(outDir);
      io.stdout(`Built ${adapter.name} into ${outDir}:\n${result.files.map((file) => `  ${file}\n`).join('')}Next: ${result.instructions}\n`);
    });
}

function findEntry(cwd: string, given: string | undefined): string {
  if (given !== undefined) {
    const file = isAbsolute(given) ? given : resolve(cwd, given);
    if (!existsSync(file)) throw deployError('LOUSHO_DEPLOY_INVALID', `The agent module ${file} does not exist.`, 'Pass the file that default-exports your agent, e.g. lousho build src/agent.ts.');
    return file;
  }
  const found = DEFAULT_ENTRIES.map((candidate) => resolve(cwd, candidate)).find((file) => existsSync(file));
  if (!found) throw deployError('LOUSHO_DEPLOY_INVALID', `No agent module given, and none of ${DEFAULT_ENTRIES.join(', ')} exists.`, 'Pass the file that default-exports your agent: lousho build path/to/agent.ts.');
  return found;
}

/** A module that calls registerAdapter() itself, or default-exports an adapter. */
async function loadAdapterModule(file: string): Promise<void> {
  if (!existsSync(file)) throw deployError('LOUSHO_DEPLOY_INVALID', `The adapter module ${file} does not exist.`, 'Pass a path to a module that registers a deployment adapter.');
  const mod = (await import(pathToFileURL(file).href)) as { default?: DeploymentAdapter };
  const adapter = mod.default;
  if (adapter && typeof adapter === 'object' && typeof adapter.build === 'function' && getAdapter(adapter.name) !== adapter) registerAdapter(adapter, { replace: true });
}
