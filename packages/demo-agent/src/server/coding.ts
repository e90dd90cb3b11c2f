import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { BubblewrapSandbox, NodeWorkspace, SandboxShell } from '@lousho/build-ai-agent';
import { DEMO_PROJECT_FILES } from '../coding/project.js';
import { inMemoryCoding, type DemoCoding } from '../coding/tools.js';

/** The demo server's coding tools, and how to remove the project copy they made (at once, on the call: no need to wait). */
export type ServerCoding = DemoCoding & { dispose(): Promise<void> };

/**
 * Where the demo server's coding tools work. With bubblewrap (Linux): a real copy of the demo
 * project in a temporary folder, its commands (`npm test` for real) in a `BubblewrapSandbox` that
 * sees the project read-write, the system read-only, and nothing else (no network, no home).
 * Without it: the in-memory project with scripted commands, and a note that says so plainly.
 */
export async function createDemoCoding(options: { bwrap?: string } = {}): Promise<ServerCoding> {
  if (!(await BubblewrapSandbox.available(options))) {
    const coding = inMemoryCoding(
      'Coding tools: bubblewrap is not installed, so nothing runs for real: the project is in memory and `npm test` is simulated (install bubblewrap, e.g. apt-get install bubblewrap, to run commands in a sandbox).',
    );
    return { ...coding, dispose: async () => {} };
  }
  const root = mkdtempSync(join(tmpdir(), 'lousho-demo-project-'));
  for (const [path, text] of Object.entries(DEMO_PROJECT_FILES)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  // Node and npm must be visible inside: the system is, and so is this Node's own prefix when it
  // lives elsewhere (nvm, a tool cache).
  const prefix = dirname(dirname(process.execPath));
  const system = ['/usr', '/bin', '/sbin', '/lib'].some((dir) => prefix === dir || prefix.startsWith(`${dir}/`));
  const sandbox = new BubblewrapSandbox({
    root,
    timeoutMs: 30_000,
    env: { npm_config_cache: '/tmp/npm-cache', npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    limits: { cpuSeconds: 30, fileSizeBytes: 16 * 1024 * 1024 },
    ...(system ? {} : { readOnlyPaths: [prefix] }),
  });
  return {
    fs: new NodeWorkspace({ root }),
    shell: new SandboxShell(sandbox),
    sandbox: 'bubblewrap',
    note: `Coding tools: a real copy of the demo project in ${root}; commands run in a bubblewrap sandbox (the project read-write, the system read-only, no network, nothing else of this machine).`,
    // Its commands are killed and the copy removed before the first await: a process 'exit'
    // handler, which cannot wait, can call it (the SvelteKit demo does).
    dispose: async () => {
      const stopped = sandbox.dispose();
      rmSync(root, { recursive: true, force: true });
      await stopped;
    },
  };
}
