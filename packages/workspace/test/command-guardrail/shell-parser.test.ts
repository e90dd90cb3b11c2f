import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseShell, ShellSyntaxError, type ShellScript, type SimpleCommand } from '../../src/index.js';
import { analyzeCommandLine } from '../../src/command-guardrail/analyze.js';
import { wordArgs } from '../../src/command-guardrail/words.js';

/** The static argv of every simple command at the top level of a script. */
function argvs(script: ShellScript): (string | undefined)[][] {
  return script.commands.flatMap((c) => (c.type === 'simple' ? [c.words.flatMap(wordArgs).map((a) => a.text)] : []));
}

// Words with the characters that matter to a shell.
const wordChar = fc.constantFrom(...'abcXYZ019-_./=:,@%+~ \t\n;&|<>()$`\'"\\*?[]{}#!'.split(''));
const word = fc.array(wordChar, { minLength: 1, maxLength: 8 }).map((cs) => cs.join(''));

type Quote = (w: string) => string;
const single: Quote = (w) => `'${w.replace(/'/g, `'\\''`)}'`;
const double: Quote = (w) => `"${w.replace(/(["\\$`])/g, '\\$1')}"`;
const backslash: Quote = (w) => w.replace(/[^A-Za-z0-9]/g, (c) => (c === '\n' ? `$'\\n'` : `\\${c}`));
const ansi: Quote = (w) => `$'${[...w].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}'`;
const quote = fc.constantFrom(single, double, backslash, ansi);
const separator = fc.constantFrom('; ', ' && ', ' || ', ' | ', '\n', ' & ');

describe('parseShell', () => {
  it('property: quoted words come back exactly, whatever they hold and however commands are joined', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(word, quote), { minLength: 1, maxLength: 5 }), { minLength: 1, maxLength: 4 }),
        fc.array(separator, { minLength: 4, maxLength: 4 }),
        (commands, seps) => {
          const line = commands.map((c) => c.map(([w, q]) => q(w)).join(' ')).reduce((acc, c, i) => `${acc}${seps[i - 1]}${c}`);
          expect(argvs(parseShell(line)), line).toEqual(commands.map((c) => c.map(([w]) => w)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('property: never throws anything but ShellSyntaxError, and stays fast, on arbitrary input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'a $(){}[];&|<>\'"`\\\n#=*!'.split('')), maxLength: 60 }), (line) => {
        try {
          parseShell(line);
        } catch (error) {
          expect(error).toBeInstanceOf(ShellSyntaxError);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('reads compound commands, here-documents, assignments and redirections', () => {
    const script = parseShell('x=1 y="a b" cmd >out 2>&1 <<-EOF arg\n\t$(inner)\n\tEOF\nif a; then b; elif c; then d; else e; fi');
    const [first, second] = script.commands;
    expect(first).toMatchObject({ type: 'simple', assignments: [{ name: 'x' }, { name: 'y' }], redirects: [{ op: '>' }, { op: '>&' }, { op: '<<-' }] });
    expect(argvs(script)[0]).toEqual(['cmd', 'arg']);
    expect(second).toMatchObject({ type: 'compound', kind: 'if' });
    expect(analyzeCommandLine('cat <<EOF\n$(inner one)\nEOF').commands.map((c) => c.program)).toEqual(['inner', 'cat']);
    expect(analyzeCommandLine("cat <<'EOF'\n$(not run)\nEOF").commands.map((c) => c.program)).toEqual(['cat']);
  });

  it('finds the commands inside every construct that runs one', () => {
    const programs = (line: string) => analyzeCommandLine(line).commands.map((c) => c.program);
    expect(programs('a $(b `c`) "$(d)" ${x:-$(e)} <(f) >(g) $(( $(h) ))')).toEqual(['c', 'b', 'd', 'e', 'f', 'g', 'h', 'a']);
    expect(programs('for i in $(seq 3); do w; done; while x; do y; done; until z; do q; done')).toEqual(['seq', 'w', 'x', 'y', 'z', 'q']);
    expect(programs('case $(k) in a|b) l;; *) m;; esac')).toEqual(['k', 'l', 'm']);
    // `(( ))` is bash arithmetic and dash's nested subshells: both readings run `r`.
    expect(programs('f() { n; }; function g { o; }; [[ -n $(p) ]]; (( $(r) ))')).toEqual(['n', 'o', 'p', 'r', 'r']);
    expect(programs('a=(1 $(s)) t')).toEqual(['s', 't']);
  });

  it('rejects what is not valid shell, with the position', () => {
    for (const bad of ['echo "x', "echo 'x", 'echo $(x', 'echo `x', 'if a; then b', '(a', 'a )', 'a && ', '| a', 'case x in', 'echo ${x', 'for', '{ a; ']) {
      expect(() => parseShell(bad), bad).toThrow(ShellSyntaxError);
    }
    expect(() => parseShell('echo )')).toThrow(/unexpected '\)' \(at character 6\)/);
  });

  it('decodes ANSI-C strings and treats $HOME as ~', () => {
    expect(argvs(parseShell("$'\\x72\\155\\u0041\\n\\t\\\\'"))).toEqual([['rmA\n\t\\']]);
    const command = parseShell('x $HOME/a').commands[0] as SimpleCommand;
    expect(wordArgs(command.words[1]!)[0]!.text).toBe('~/a');
  });
});
