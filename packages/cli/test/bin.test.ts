import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const tsx = fileURLToPath(new URL('../../core/node_modules/.bin/tsx', import.meta.url));
const bin = fileURLToPath(new URL('../src/bin.ts', import.meta.url));

describe('the lousho bin', () => {
  it('exits 0 without an EPIPE crash when its reader closes early (lousho build --help | head -1)', async () => {
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'build', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // The reader is gone before the help is written.
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  }, 30_000);

  it('exits 1 with the error code on a failed build', async () => {
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'build', 'missing.ts'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toMatch(/^error LOUSHO_DEPLOY_INVALID: .*missing\.ts does not exist/m);
  }, 30_000);

  it('lousho eval exits 1 when a check fails (a real process, an eval file with package imports)', async () => {
    const file = fileURLToPath(new URL('./fixtures/evals/pkg/package-imports.eval.ts', import.meta.url));
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'eval', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stdout).toContain('✗ When does my order ship? › offers a refund: The reply lacks "refund" (0 of 1 found).');
    expect(stdout).toContain('FAIL shipping');
    expect(code).toBe(1);
  }, 60_000);

  it('lousho eval exits 0 when every eval passes', async () => {
    const file = fileURLToPath(new URL('./fixtures/evals/pass/echo.eval.ts', import.meta.url));
    const child = spawn(tsx, ['--conditions=@lousho/source', bin, 'eval', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(stdout).toContain('1 eval: 1 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);
});
