/**
 * Untrusted input benchmark (issue 45, "Linear time on untrusted input").
 *
 * Times what a hostile MCP server or model can hand the agent:
 *   - one validation of arguments against a schema whose `oneOf` nests 20 levels (the old nested
 *     zod union doubled per level: 2^20 branch checks);
 *   - the pattern `^(a+)+$` on 40 a's and a '!' (JavaScript's backtracking engine doubles per
 *     character: hours at 40), through the MCP validator and through `compileLinearRegExp` (what the
 *     workspace `grep` tool runs);
 *   - `renderTemplate` on a value shared 14 levels deep (a DAG; written out it is 16,384 leaves).
 * Side by side in the same run, the old code path that is still reachable: JavaScript's RegExp on
 * the same pattern at 16-24 characters (its time doubles per character; 40 is out of reach). The old
 * converter is gone; its figures, measured before the change, are in docs/benchmarks.md with the
 * command. Medians of RUNS runs each; target under 1 ms per validation.
 */
import { compileLinearRegExp, renderTemplate } from '@lousho/build-ai-agent';
import { jsonSchemaToZod } from '@lousho/build-ai-agent/mcp';
import { writeResultSection } from './results.js';
import { median, printTable } from './stats.js';

const RUNS = 21;

function nestedOneOf(levels: number): unknown {
  return levels === 0 ? { type: 'string' } : { oneOf: [nestedOneOf(levels - 1), { type: 'number' }] };
}

function sharedValue(levels: number): unknown {
  let node: unknown = { leaf: 'x' };
  for (let i = 0; i < levels; i++) node = { left: node, right: node };
  return node;
}

/** Median time of `fn` in ms, after one unmeasured call. */
function timed(fn: () => unknown, runs = RUNS): number {
  fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function runUntrustedInputBench(): Promise<void> {
  const oneOf = jsonSchemaToZod({ type: 'object', properties: { v: nestedOneOf(20) }, required: ['v'] });
  const pattern = jsonSchemaToZod({ type: 'object', properties: { v: { type: 'string', pattern: '^(a+)+$' } } });
  const linear = compileLinearRegExp('^(a+)+$');
  const hostile = `${'a'.repeat(40)}!`;
  if (!oneOf.safeParse({ v: 'x' }).success || pattern.safeParse({ v: hostile }).success || linear.test(hostile)) throw new Error('unexpected verdict');

  const oneOfMs = timed(() => oneOf.safeParse({ v: 'x' }));
  const patternMs = timed(() => pattern.safeParse({ v: hostile }));
  const re2Ms = timed(() => linear.test(hostile));
  const re2LongMs = timed(() => linear.test(`${'a'.repeat(100_000)}!`));
  linear.dispose();
  const dag = sharedValue(14);
  const templateMs = timed(() => renderTemplate('{{v}}', { v: dag }), 7);

  // The old path for patterns, still reachable: JavaScript's RegExp, side by side, where it ends.
  const backtracking = [16, 20, 24].map((length) => {
    const text = `${'a'.repeat(length)}!`;
    const regex = /^(a+)+$/u;
    return { length, ms: timed(() => regex.test(text), 3) };
  });
  const perCharacter = Math.pow(backtracking[2]!.ms / backtracking[1]!.ms, 1 / 4);

  const ms = (value: number) => `${value < 0.1 ? value.toFixed(4) : value.toFixed(2)} ms`;
  printTable(`Untrusted input: one check each, medians of ${RUNS} runs`, [
    ['MCP arguments, oneOf nested 20 levels (target < 1 ms)', `${ms(oneOfMs)} ${oneOfMs < 1 ? 'OK' : 'OVER TARGET'}`],
    ["MCP arguments, pattern ^(a+)+$ on 40 a's + '!' (target < 1 ms)", `${ms(patternMs)} ${patternMs < 1 ? 'OK' : 'OVER TARGET'}`],
    ["compileLinearRegExp (grep), ^(a+)+$ on 40 a's + '!'", ms(re2Ms)],
    ["compileLinearRegExp (grep), ^(a+)+$ on 100,000 a's + '!'", ms(re2LongMs)],
    ['renderTemplate, a value shared 14 levels deep (16,384 leaves)', ms(templateMs)],
    ...backtracking.map(({ length, ms: value }): [string, string] => [`before: JavaScript RegExp, ^(a+)+$ on ${length} a's + '!'`, ms(value)]),
    ['before: JavaScript RegExp, growth per character (24 vs 20)', `× ${perCharacter.toFixed(2)}`],
  ]);
  writeResultSection('untrustedInput', { runs: RUNS, oneOfMs, patternMs, re2Ms, re2LongMs, templateMs, backtracking, perCharacter });
}

// `tsx src/untrusted-input.bench.ts` runs it alone.
if (import.meta.url === `file://${process.argv[1]}`) await runUntrustedInputBench();
