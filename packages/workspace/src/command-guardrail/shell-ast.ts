/**
 * What the shell parser produces: every simple command of a command line (nested ones included)
 * with its words split into parts, so the command guardrail can tell a literal `rm` from `$CMD`.
 */

/** A piece of a word. `quoted` parts are exempt from globbing, brace and tilde expansion. */
export type WordPart =
  | { type: 'literal'; text: string; quoted: boolean }
  /** `$name`, `${...}`, `$1`, `$@`: its value is only known when the command runs. `nested` holds expansions inside `${...}`. */
  | { type: 'parameter'; name: string; quoted: boolean; nested: WordPart[] }
  /** `$( ... )` or backticks: runs `script`; the word's value is its output. */
  | { type: 'command-substitution'; script: ShellScript; quoted: boolean }
  /** `<( ... )` / `>( ... )`: runs `script`; the word is a file name. */
  | { type: 'process-substitution'; script: ShellScript }
  /** `$(( ... ))`: a number; `nested` holds expansions inside it. */
  | { type: 'arithmetic'; nested: WordPart[] };

/** A word of a parsed shell command line. */
export interface ShellWord {
  /** The word as written. */
  raw: string;
  parts: WordPart[];
}

/** A redirection of a parsed shell command (`>`, `<`, ...) and its target. */
export interface Redirect {
  op: string;
  target: ShellWord;
  /** A here-document's body (its expansions run when the delimiter is unquoted). */
  body?: ShellWord;
}

/** One command of a parsed shell command line. */
export interface SimpleCommand {
  type: 'simple';
  /** `NAME=value` words before the command name (`value` as a word). */
  assignments: { name: string; value: ShellWord }[];
  /** The command name and its arguments. Empty for a line of assignments or redirections only. */
  words: ShellWord[];
  redirects: Redirect[];
}

/** Any other construct: a subshell, a group, if/while/for/case, a function definition, `[[ ]]`, `(( ))`. */
export interface CompoundCommand {
  type: 'compound';
  kind: 'subshell' | 'group' | 'if' | 'while' | 'until' | 'for' | 'select' | 'case' | 'function' | 'test' | 'arithmetic';
  /** Scripts it runs (bodies, conditions). */
  scripts: ShellScript[];
  /** Words it expands (for-lists, case subjects and patterns, `[[ ]]` operands). */
  words: ShellWord[];
  /** The variable a `for` or `select` loop sets. */
  variable?: string;
  redirects: Redirect[];
}

/** A parsed shell command: a simple command or a compound one. */
export type ShellCommand = SimpleCommand | CompoundCommand;

/** A command line: its commands, in order, however they are joined (`;`, `&&`, `||`, `|`, `&`, new lines). */
export interface ShellScript {
  commands: ShellCommand[];
}
