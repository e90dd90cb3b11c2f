import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../src/index.js';
import { fixture, packageDir, tempDir } from './helpers.js';

async function lousho(args: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: CliIo = { stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t), cwd: packageDir, ...extra };
  const code = await runCli(args, io);
  return { code, stdout, stderr };
}

const passing = fixture('evals/pass/echo.eval.ts');
const failing = fixture('evals/fail/mixed.eval.ts');

describe('lousho eval', () => {
  it('runs a passing eval: a table of cases × scorers and checks, a summary, exit 0', async () => {
    const { code, stdout, stderr } = await lousho(['eval', passing]);
    expect(code).toBe(0);
    expect(stdout).toMatch(/│ case\s+│ exactMatch │ ✓ includes │ score │ result │/);
    expect(stdout).toMatch(/│ hello\s+│ 1\.00\s+│ ✓\s+│ 1\.00\s+│ pass\s+│/);
    expect(stdout).toContain('PASS echo (test/fixtures/evals/pass/echo.eval.ts): score 1.00 (threshold 0.9), 2/2 cases passed, 2 runs in');
    expect(stdout).toContain('runs:   20 in / 4 out tokens (2 model calls)');
    expect(stdout).toContain('1 eval: 1 passed, 0 failed');
    // Not a terminal: progress is a line per finished eval on stderr.
    expect(stderr).toMatch(/^✓ test\/fixtures\/evals\/pass\/echo\.eval\.ts › echo: 2\/2 cases passed, 2 runs, /m);
  }, 30_000);

  it('exits 1 when a check fails or a run errors, and says which', async () => {
    const { code, stdout } = await lousho(['eval', failing]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/│ tricky <xml>\s+│ 0\.00\s+│ 1\.00\s+│ ✗ 0\/1\s+│ 0\.50\s+│ FAIL\s+│/);
    expect(stdout).toMatch(/│ crashes\s+│ 0\.00\s+│ 0\.00\s+│ ✗ 0\/1\s+│ 0\.00\s+│ ERROR\s+│/);
    expect(stdout).toContain('✗ crashes: Error: model exploded <badly> & "loudly"');
    expect(stdout).toContain('✗ tricky <xml> › echoes: The reply lacks "echo" (0 of 1 found).');
    expect(stdout).toContain('PASS fine');
    expect(stdout).toContain('FAIL broken');
    expect(stdout).toContain('2 evals: 1 passed, 1 failed');
  }, 30_000);

  it('strips terminal escape codes and control characters from model text it prints', async () => {
    const { code, stdout, stderr } = await lousho(['eval', fixture('evals/escapes/escapes.eval.ts')]);
    expect(code).toBe(1);
    // The model text is there (the reason and the error name it), without a single control character.
    expect(stdout).toContain('✗ reply › exactMatch: Expected "something else", got "xred PASS forged".');
    expect(stdout).toContain('✗ crash: Error: boom xred PASS forged');
    for (const text of [stdout, stderr]) {
      expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/);
      expect(text).not.toMatch(/^PASS forged/m);
    }
  }, 30_000);

  it('--junit writes JUnit XML that a real XML parser accepts, with a failure, an error and escaped replies', async () => {
    const dir = await tempDir();
    const { code } = await lousho(['eval', failing, '--junit', join(dir, 'reports/junit.xml')]);
    expect(code).toBe(1);
    const xml = await readFile(join(dir, 'reports/junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = doc.testsuites;
    expect(suites).toMatchObject({ name: 'lousho eval', tests: '4', failures: '1', errors: '1' });
    const [fine, broken] = suites.testsuite;
    expect(fine).toMatchObject({ name: 'fine', tests: '1', failures: '0', errors: '0', file: 'test/fixtures/evals/fail/mixed.eval.ts' });
    expect(broken).toMatchObject({ name: 'broken', tests: '3', failures: '1', errors: '1' });
    const [passes, tricky, crashes] = broken.testcase;
    expect(passes).toMatchObject({ name: 'passes', classname: 'broken' });
    expect(passes.failure).toBeUndefined();
    expect(tricky.name).toBe('tricky <xml>');
    expect(tricky.failure).toMatchObject({ message: 'echoes failed', type: 'check' });
    expect(tricky.failure['#text']).toContain('echoes: passed 0/1: The reply lacks "echo"');
    expect(tricky['system-out']).toContain('exactMatch: 0.00 (Expected "echo: tricky", got "a <b> & "c" \uFFFD done".)');
    expect(crashes.error).toMatchObject({ message: 'Error: model exploded <badly> & "loudly"', type: 'error' });
  }, 30_000);

  it('--json writes every report; --baseline marks what got worse; --fail-on-regression exits 1 for it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lousho-eval-'));
    const json = join(dir, 'run.json');
    expect((await lousho(['eval', passing, '--json', json])).code).toBe(0);
    const saved = JSON.parse(await readFile(json, 'utf8'));
    expect(saved).toMatchObject({ version: 1, passed: true, evals: [{ name: 'echo', file: 'test/fixtures/evals/pass/echo.eval.ts', score: 1, cases: [{ name: 'hello', passed: true }, { name: 'bye', passed: true }] }] });

    // A baseline in which 'bye' scored better than it can now.
    const better = join(dir, 'better.json');
    const { writeFile } = await import('node:fs/promises');
    saved.evals[0].cases[1].scores.exactMatch.score = 1;
    saved.evals[0].cases[0].scores.exactMatch.score = 1;
    const worse = structuredClone(saved);
    await writeFile(better, JSON.stringify(saved));
    const same = await lousho(['eval', passing, '--baseline', better]);
    expect(same.code).toBe(0);
    expect(same.stdout).toContain(`Baseline ${better}: no regressions`);

    // Now a run that is worse than the baseline: the failing fixture against a baseline where it passed.
    worse.evals = [{ ...worse.evals[0], name: 'broken', passed: true, score: 1, cases: [{ ...worse.evals[0].cases[0], name: 'tricky <xml>', passed: true, score: 1, scores: { exactMatch: { score: 1, reason: '', runs: [1] } }, checks: { echoes: { passed: 1, runs: 1, reason: '' } } }] }];
    const worseFile = join(dir, 'worse.json');
    await writeFile(worseFile, JSON.stringify(worse));
    const regressed = await lousho(['eval', failing, '--baseline', worseFile]);
    expect(regressed.stdout).toMatch(/│ tricky <xml>\s+│ 0\.00 ▼ 1\.00\s+│/);
    expect(regressed.stdout).toContain('▼ broken › tricky <xml> › exactMatch: 1.00 → 0.00');
    expect(regressed.stdout).toContain('▼ broken › tricky <xml>: passed before, fails now');
    expect(regressed.stdout).toMatch(/Baseline .*worse\.json: \d+ regressions/);

    // A passing eval that regressed: exit 0 unless --fail-on-regression.
    saved.evals[0].score = 2;
    await writeFile(better, JSON.stringify(saved));
    expect((await lousho(['eval', passing, '--baseline', better])).code).toBe(0);
    expect((await lousho(['eval', passing, '--baseline', better, '--fail-on-regression'])).code).toBe(1);
  }, 60_000);

  it('--repeat and --concurrency apply to every eval', async () => {
    const dir = await tempDir();
    const { code } = await lousho(['eval', passing, '--repeat', '3', '--concurrency', '2', '--json', join(dir, 'r.json')]);
    expect(code).toBe(0);
    const saved = JSON.parse(await readFile(join(dir, 'r.json'), 'utf8'));
    expect(saved.evals[0].repeat).toBe(3);
    expect(saved.evals[0].cases[0].runs).toHaveLength(3);
  }, 30_000);

  it('finds *.eval.* files in a directory', async () => {
    const { code, stdout } = await lousho(['eval', fixture('evals/pass')]);
    expect(code).toBe(0);
    expect(stdout).toContain('PASS echo');
  }, 30_000);

  it('bad input: clear errors with a code, exit 1', async () => {
    const notEval = await lousho(['eval', fixture('evals/bad/not-an-eval.eval.ts')]);
    expect(notEval.code).toBe(1);
    expect(notEval.stderr).toMatch(/^error LOUSHO_EVAL_INVALID: test\/fixtures\/evals\/bad\/not-an-eval\.eval\.ts: the default export is not an eval\./m);
    const throws = await lousho(['eval', fixture('evals/bad/throws.eval.ts')]);
    expect(throws.stderr).toMatch(/^error LOUSHO_EVAL_INVALID: .*throws\.eval\.ts could not be loaded: cannot load this/m);
    expect(throws.stderr).not.toMatch(/\n\s+at /);
    const missing = await lousho(['eval', 'nope.eval.ts']);
    expect(missing.stderr).toMatch(/^error LOUSHO_EVAL_INVALID: The eval file .*nope\.eval\.ts does not exist\./m);
    const none = await lousho(['eval'], { cwd: await tempDir() });
    expect(none.stderr).toMatch(/No eval files \(\*\.eval\.ts, \*\.eval\.js\) under/);
    const badRepeat = await lousho(['eval', passing, '--repeat', '0']);
    expect(badRepeat.code).toBe(1);
    expect(badRepeat.stderr).toMatch(/option '--repeat <n>' argument '0' is invalid\. expected a positive integer\./);
    const badBaseline = await lousho(['eval', passing, '--baseline', fixture('evals/pass/echo.eval.ts')]);
    expect(badBaseline.stderr).toMatch(/^error LOUSHO_EVAL_INVALID: The baseline .* could not be read/m);
  }, 30_000);

  it('on a terminal, progress is a bar on stderr', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true, columns: 100 });
    let drawn = '';
    stream.on('data', (chunk: Buffer) => (drawn += chunk.toString()));
    const { code } = await lousho(['eval', passing], { stderrStream: stream as unknown as NodeJS.WriteStream });
    expect(code).toBe(0);
    expect(drawn).toMatch(/[█░]+ \d\/2 runs \| echo \| 0 failed/);
  }, 30_000);
});
