import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent, defineTool, type AgentStreamEvent, type SandboxAdapter } from '@lousho/core';
import { mockModel } from '@lousho/core/testing';
import { createShellTool, NoopSandbox, SandboxShell, SubprocessSandbox } from '../../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'lousho-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Alive: the process exists and is not a zombie waiting to be reaped. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function eventually(predicate: () => boolean, ms = 3000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (predicate()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return predicate();
}

/** A command that starts two background sleepers (a child and a grandchild) and records their pids. */
function sleepers(name: string): { command: string; pids: () => number[] } {
  const file = join(dir, `${name}.pids`);
  return {
    command: `sleep 300 & echo $! >> ${file}; sh -c 'sleep 300 & echo $! >> ${file}; wait' & sleep 300`,
    pids: () =>
      readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map(Number),
  };
}

describe('SubprocessSandbox', () => {
  it('kills the whole process group on timeout: no process it started survives', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir, killGraceMs: 200 });
    const { command, pids } = sleepers('timeout');
    const result = await sandbox.exec(command, { timeoutMs: 500 });
    expect(result).toMatchObject({ timedOut: true, exitCode: null });
    expect(pids()).toHaveLength(2);
    expect(await eventually(() => pids().every((pid) => !alive(pid)))).toBe(true);
  });

  it('kills the whole process group on abort and rejects with the abort reason', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir, killGraceMs: 200 });
    const { command, pids } = sleepers('abort');
    const controller = new AbortController();
    const running = sandbox.exec(command, { signal: controller.signal });
    await eventually(() => {
      try {
        return pids().length === 2;
      } catch {
        return false;
      }
    });
    controller.abort(new DOMException('stopped by the test', 'AbortError'));
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(await eventually(() => pids().every((pid) => !alive(pid)))).toBe(true);
  });

  it('kills what a finished command left running in the background', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir });
    const file = join(dir, 'background.pid');
    const result = await sandbox.exec(`sleep 300 > /dev/null 2>&1 & echo $! > ${file}; echo started`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n', timedOut: false });
    const pid = Number(readFileSync(file, 'utf8'));
    expect(await eventually(() => !alive(pid))).toBe(true);
  });

  it('kills what left the process group (setsid, double fork, nohup): when the command ends, on timeout and on dispose', async () => {
    const file = join(dir, 'escapees.pids');
    // Each escapee records its own pid (`exec sleep` keeps it), so the test can check it is gone.
    const escape = (seconds: number) =>
      [`setsid sh -c 'echo $$ >> ${file}; exec sleep ${seconds}' > /dev/null 2>&1 &`, `(sh -c 'echo $$ >> ${file}; exec sleep ${seconds}' > /dev/null 2>&1 &)`, `nohup sh -c 'echo $$ >> ${file}; exec sleep ${seconds}' > /dev/null 2>&1 &`].join('\n');
    const recorded = () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').map(Number) : []);
    const sandbox = new SubprocessSandbox({ cwd: dir, killGraceMs: 100 });

    await sandbox.exec(`${escape(300201)}\nsleep 0.2; echo done`);
    expect(recorded()).toHaveLength(3);
    expect(await eventually(() => recorded().every((pid) => !alive(pid)))).toBe(true);

    rmSync(file);
    expect(await sandbox.exec(`${escape(300202)}\nsleep 300`, { timeoutMs: 400 })).toMatchObject({ timedOut: true });
    expect(recorded()).toHaveLength(3);
    expect(await eventually(() => recorded().every((pid) => !alive(pid)))).toBe(true);

    rmSync(file);
    const running = sandbox.exec(`${escape(300203)}\nsleep 300`);
    await eventually(() => recorded().length === 3);
    await sandbox.dispose();
    await running;
    expect(await eventually(() => recorded().every((pid) => !alive(pid)))).toBe(true);
  });

  it('offers no run(fn): it would have run the function in this process', () => {
    expect('run' in new SubprocessSandbox()).toBe(false);
  });

  it('does not pass the host environment on (only PATH and what is given)', async () => {
    process.env.LOUSHO_SANDBOX_SECRET = 'sk-should-not-leak';
    try {
      const sandbox = new SubprocessSandbox({ cwd: dir, env: { GIVEN: 'yes' } });
      const { stdout } = await sandbox.exec('env');
      expect(stdout).not.toContain('sk-should-not-leak');
      expect(stdout).toContain('GIVEN=yes');
      expect(stdout).toMatch(/^PATH=/m);
      const inherited = new SubprocessSandbox({ cwd: dir, inheritEnv: ['PATH', 'LOUSHO_SANDBOX_SECRET'] });
      expect((await inherited.exec('echo $LOUSHO_SANDBOX_SECRET')).stdout).toBe('sk-should-not-leak\n');
    } finally {
      delete process.env.LOUSHO_SANDBOX_SECRET;
    }
  });

  it('caps output, keeping the start and the end', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir, maxOutputBytes: 200 });
    const result = await sandbox.exec('seq 1 50000; echo tail-marker >&2');
    expect(result.truncated).toBe(true);
    expect(result.stdout.startsWith('1\n2\n3\n')).toBe(true);
    expect(result.stdout.endsWith('49999\n50000\n')).toBe(true);
    expect(result.stdout.length).toBeLessThan(300);
    expect(result.stderr).toBe('tail-marker\n');
  });

  it('runs an argv without a shell, feeds stdin, and reports a missing program clearly', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir });
    expect((await sandbox.exec(['printf', '%s|', 'a b', '$HOME'])).stdout).toBe('a b|$HOME|');
    expect((await sandbox.exec('cat', { stdin: 'fed in' })).stdout).toBe('fed in');
    await expect(sandbox.exec(['/no/such/program'])).rejects.toMatchObject({ code: 'LOUSHO_WORKSPACE_IO' });
    await expect(sandbox.exec('')).rejects.toMatchObject({ code: 'LOUSHO_INVALID_INPUT' });
    expect(() => new SubprocessSandbox({ timeoutMs: 0 })).toThrow(/positive integer/);
  });

  it('dispose kills every command still running', async () => {
    const sandbox = new SubprocessSandbox({ cwd: dir });
    const running = sandbox.exec('sleep 300');
    await new Promise((r) => setTimeout(r, 100));
    await sandbox.dispose();
    expect(await running).toMatchObject({ exitCode: null, signal: 'SIGKILL' });
  });
});

describe('requiresSandbox tools', () => {
  const sandboxed = (ran: string[]) =>
    defineTool({
      name: 'build',
      description: 'Build in the sandbox',
      input: z.object({ target: z.string() }),
      requiresSandbox: true,
      execute: async () => {
        ran.push('in-process');
        return 'ran unsandboxed';
      },
      sandboxExecute: async ({ target }, sandbox, ctx) => {
        const result = await sandbox.exec!(['echo', `built ${target}`], ctx.abortSignal ? { signal: ctx.abortSignal } : {});
        return result.stdout.trim();
      },
    });

  it('without a sandbox configured, the call is refused with the sandbox error, never run in-process', async () => {
    const ran: string[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'build', args: { target: 'app' } }] }, 'done']), tools: [sandboxed(ran)] });
    const result = await agent.send('build');
    expect(ran).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, error: { kind: 'sandbox', error: 'SandboxRequiredError' } });
  });

  it('with a SubprocessSandbox, sandboxExecute runs its work in the sandbox', async () => {
    const ran: string[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'build', args: { target: 'app' } }] }, 'done']), tools: [sandboxed(ran)], sandbox: new SubprocessSandbox({ cwd: dir }) });
    const result = await agent.send('build');
    expect(ran).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ isError: false, result: 'built app' });
  });

  it('an adapter that can neither run commands nor functions refuses the tool (SandboxRequiredError)', async () => {
    const ran: string[] = [];
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'build', args: { target: 'app' } }] }, 'done']), tools: [sandboxed(ran)], sandbox: { name: 'empty' } });
    const result = await agent.send('build');
    expect(ran).toEqual([]);
    expect(result.toolCalls[0]).toMatchObject({ isError: true, error: { kind: 'sandbox', error: 'SandboxRequiredError' } });
    expect(result.toolCalls[0]!.error!.message).toMatch(/can neither run commands/);
  });

  it('NoopSandbox runs sandboxExecute in this process and cannot back a SandboxShell', async () => {
    let seen: SandboxAdapter | undefined;
    const tool = defineTool({ name: 't', description: 't', input: z.object({}), requiresSandbox: true, execute: async () => 'no', sandboxExecute: async (_a, sandbox) => ((seen = sandbox), 'yes') });
    const sandbox = new NoopSandbox();
    const result = await createAgent({ provider: mockModel([{ toolCalls: [{ name: 't', args: {} }] }, 'ok']), tools: [tool], sandbox }).send('go');
    expect(result.toolCalls[0]!.result).toBe('yes');
    expect(seen).toBe(sandbox);
    expect(() => new SandboxShell(sandbox)).toThrow(/cannot/);
  });
});

describe('SandboxShell + createShellTool', () => {
  it('stopping the run kills the command and its process group; the call is cancelled', async () => {
    const { command, pids } = sleepers('agent-stop');
    const shell = createShellTool(new SandboxShell(new SubprocessSandbox({ cwd: dir, killGraceMs: 200 })));
    const agent = createAgent({ provider: mockModel([{ toolCalls: [{ name: 'shell', args: { command } }] }, 'unused']), tools: [shell] });
    const controller = new AbortController();
    const run = agent.stream('run it', { signal: controller.signal });
    const events: AgentStreamEvent[] = [];
    const consumed = (async () => {
      for await (const e of run) events.push(e);
    })();
    await eventually(() => {
      try {
        return pids().length === 2;
      } catch {
        return false;
      }
    });
    controller.abort();
    await consumed;
    const result = await run.result;
    expect(result.finishReason).toBe('aborted');
    expect(result.toolCalls[0]).toMatchObject({ error: { kind: 'cancelled' } });
    expect(await eventually(() => pids().every((pid) => !alive(pid)))).toBe(true);
  });

  it('passes cwd, env and defaults through to the sandbox', async () => {
    const shell = new SandboxShell(new SubprocessSandbox({ cwd: dir }), { env: { FROM_SHELL: '1' } });
    const result = await shell.exec('pwd; echo $FROM_SHELL $FROM_CALL', { env: { FROM_CALL: '2' } });
    expect(result.stdout).toBe(`${dir}\n1 2\n`);
  });
});
