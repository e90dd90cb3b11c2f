import { ERROR_CODES, SDKError } from '@lousho/core';
import type { CompoundCommand, Redirect, ShellCommand, ShellScript, ShellWord, SimpleCommand, WordPart } from './shell-ast.js';

/**
 * A parser for the shell command language (POSIX sh plus the bash forms models write: `$'…'`,
 * `[[ ]]`, `(( ))`, `<( )`, `|&`, `&>`, here-strings, `function`). It is the command guardrail's
 * eyes, so it errs on the side of refusing: anything it cannot read is a `ShellSyntaxError`, and
 * the guardrail blocks a command line it cannot parse. It never runs or expands anything.
 */

/** A command line `parseShell()` cannot read: `LOUSHO_SHELL_SYNTAX`, with the character where reading stopped. */
export class ShellSyntaxError extends SDKError {
  /** The index of the character where reading stopped. */
  readonly position: number;
  /** True when the line is not wrong but past a bound (nesting too deep to check). */
  readonly bound: boolean;
  constructor(message: string, position: number, bound = false) {
    super(ERROR_CODES.LOUSHO_SHELL_SYNTAX, `${message} (at character ${position + 1})`, {
      hint: 'The command guardrail blocks a line it cannot read; treat it as one that cannot be checked.',
    });
    this.name = 'ShellSyntaxError';
    this.position = position;
    this.bound = bound;
  }
}

/** Nesting deeper than this (substitutions in substitutions...) is refused rather than followed. */
const MAX_DEPTH = 48;
/** `((` / `$((` read both ways inside one another deeper than this are refused (each level doubles the work). */
const MAX_DUAL_READINGS = 8;

type Token =
  | { kind: 'word'; word: ShellWord; start: number }
  | { kind: 'op'; op: string; fd?: string; start: number }
  | { kind: 'eof'; start: number };

// Longest first, so `&&` wins over `&` and `<<-` over `<<`.
const OPERATORS = ['&>>', ';;&', '<<<', '<<-', '&&', '||', ';;', ';&', '|&', '&>', '<<', '<&', '<>', '>>', '>&', '>|', ';', '&', '|', '(', ')', '<', '>', '\n'];
const REDIRECTS = new Set(['&>>', '<<<', '<<-', '&>', '<<', '<&', '<>', '>>', '>&', '>|', '<', '>']);
const METACHARS = new Set([' ', '\t', '\n', '|', '&', ';', '(', ')', '<', '>']);
/** Inside `[[ ]]` these are operands of the test, not command separators. */
const TEST_OPERATORS = ['&&', '||', '(', ')', '<', '>'];
const RESERVED = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'case', 'esac', 'while', 'until', 'for', 'select', 'in', 'function', '{', '}', '!', '[[', ']]', 'time']);
const ASSIGNMENT_PREFIX = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/;
const ARRAY_ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=$/;

interface PendingHeredoc {
  redirect: Redirect;
  delimiter: string;
  expand: boolean;
  stripTabs: boolean;
}

/** Parses a command line. Throws `ShellSyntaxError` when it is not valid shell (or too deeply nested). */
export function parseShell(source: string, depth = 0): ShellScript {
  return new Parser(source, depth).parseAll();
}

class Parser {
  private pos = 0;
  private depth: number;
  private peeked: { pos: number; test: boolean; token: Token; end: number } | undefined;
  private heredocs: PendingHeredoc[] = [];
  private dualDepth = 0;

  constructor(
    private readonly src: string,
    depth: number,
  ) {
    if (depth > MAX_DEPTH) throw new ShellSyntaxError('the command line nests substitutions too deeply to check', 0, true);
    this.depth = depth;
  }

  parseAll(): ShellScript {
    const commands = this.parseList(new Set(), new Set());
    const tok = this.peek();
    if (tok.kind !== 'eof') throw this.unexpected(tok);
    if (this.heredocs.length > 0) this.readHeredocs();
    return { commands };
  }

  // ---------------------------------------------------------------- grammar

  /** Commands separated by `;`, `&` and new lines, up to a stop word (in command position) or a stop operator. */
  private parseList(stopWords: ReadonlySet<string>, stopOps: ReadonlySet<string>): ShellCommand[] {
    const out: ShellCommand[] = [];
    for (;;) {
      this.skipSeparators();
      const tok = this.peek();
      if (tok.kind === 'eof') break;
      if (tok.kind === 'op' && stopOps.has(tok.op)) break;
      if (tok.kind === 'word' && stopWords.has(reservedWord(tok.word) ?? '')) break;
      this.parseAndOr(out);
      const after = this.peek();
      if (after.kind === 'op' && (after.op === ';' || after.op === '&' || after.op === '\n')) continue;
      break;
    }
    return out;
  }

  private skipSeparators(): void {
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'op' && (tok.op === '\n' || tok.op === ';' || tok.op === '&')) this.next();
      else return;
    }
  }

  private skipNewlines(): void {
    for (let tok = this.peek(); tok.kind === 'op' && tok.op === '\n'; tok = this.peek()) this.next();
  }

  private parseAndOr(out: ShellCommand[]): void {
    this.parsePipeline(out);
    for (let tok = this.peek(); tok.kind === 'op' && (tok.op === '&&' || tok.op === '||'); tok = this.peek()) {
      this.next();
      this.skipNewlines();
      this.parsePipeline(out);
    }
  }

  private parsePipeline(out: ShellCommand[]): void {
    let tok = this.peek();
    if (tok.kind === 'word' && reservedWord(tok.word) === '!') {
      this.next();
      tok = this.peek();
    }
    if (tok.kind === 'word' && reservedWord(tok.word) === 'time') {
      this.next();
      const flag = this.peek();
      if (flag.kind === 'word' && flag.word.raw === '-p') this.next();
    }
    this.parseCommand(out);
    for (tok = this.peek(); tok.kind === 'op' && (tok.op === '|' || tok.op === '|&'); tok = this.peek()) {
      this.next();
      this.skipNewlines();
      this.parseCommand(out);
    }
  }

  /** One command; nesting is counted, so ten thousand `(` or `{` are refused, not a stack overflow. */
  private parseCommand(out: ShellCommand[]): void {
    const tok = this.peek();
    this.enter(tok.start);
    try {
      this.parseCommandAt(tok, out);
    } finally {
      this.depth--;
    }
  }

  private parseCommandAt(tok: Token, out: ShellCommand[]): void {
    if (tok.kind === 'eof') throw new ShellSyntaxError('the command line ends where a command was expected', tok.start);
    if (tok.kind === 'op') {
      if (tok.op === '(' && this.src[tok.start + 1] === '(') {
        const { bash, dash } = this.readBothWays(
          tok.start,
          () => {
            this.pos = tok.start + 2;
            return this.readArithmetic();
          },
          () => {
            this.pos = tok.start;
            return this.parseSubshell();
          },
        );
        out.push(compound('arithmetic', dash ? [{ commands: [dash] }] : [], bash ? [{ raw: '', parts: bash }] : [], this.parseRedirects()));
        return;
      }
      if (tok.op === '(') {
        out.push(this.parseSubshell());
        return;
      }
      if (!REDIRECTS.has(tok.op)) throw this.unexpected(tok);
      out.push(this.parseSimple());
      return;
    }
    const reserved = reservedWord(tok.word);
    switch (reserved) {
      case '{': {
        this.next();
        const body = this.parseList(new Set(['}']), new Set());
        this.expectWord('}');
        out.push(compound('group', [{ commands: body }], [], this.parseRedirects()));
        return;
      }
      case 'if': {
        this.next();
        const scripts: ShellScript[] = [];
        scripts.push({ commands: this.parseList(new Set(['then']), new Set()) });
        this.expectWord('then');
        scripts.push({ commands: this.parseList(new Set(['elif', 'else', 'fi']), new Set()) });
        for (;;) {
          const kw = this.takeReserved(['elif', 'else', 'fi']);
          if (kw === 'fi') break;
          if (kw === 'elif') {
            scripts.push({ commands: this.parseList(new Set(['then']), new Set()) });
            this.expectWord('then');
            scripts.push({ commands: this.parseList(new Set(['elif', 'else', 'fi']), new Set()) });
          } else {
            scripts.push({ commands: this.parseList(new Set(['fi']), new Set()) });
            this.expectWord('fi');
            break;
          }
        }
        out.push(compound('if', scripts, [], this.parseRedirects()));
        return;
      }
      case 'while':
      case 'until': {
        this.next();
        const condition = this.parseList(new Set(['do']), new Set());
        this.expectWord('do');
        const body = this.parseList(new Set(['done']), new Set());
        this.expectWord('done');
        out.push(compound(reserved, [{ commands: condition }, { commands: body }], [], this.parseRedirects()));
        return;
      }
      case 'for':
      case 'select': {
        this.next();
        const words: ShellWord[] = [];
        let variable: string | undefined;
        const head = this.peek();
        if (head.kind === 'op' && head.op === '(' && this.src[head.start + 1] === '(') {
          this.peeked = undefined;
          this.pos = head.start + 2;
          words.push({ raw: '', parts: this.readArithmetic() });
        } else {
          variable = this.expectPlainWord(`a variable name after '${reserved}'`).raw;
          this.skipNewlines();
          const maybeIn = this.peek();
          if (maybeIn.kind === 'word' && reservedWord(maybeIn.word) === 'in') {
            this.next();
            for (let w = this.peek(); w.kind === 'word'; w = this.peek()) words.push(this.takeWord());
          }
        }
        const sep = this.peek();
        if (sep.kind === 'op' && (sep.op === ';' || sep.op === '\n')) this.next();
        this.skipNewlines();
        let body: ShellCommand[];
        if (this.peekReserved() === '{') {
          this.next();
          body = this.parseList(new Set(['}']), new Set());
          this.expectWord('}');
        } else {
          this.expectWord('do');
          body = this.parseList(new Set(['done']), new Set());
          this.expectWord('done');
        }
        out.push({ ...compound(reserved, [{ commands: body }], words, this.parseRedirects()), ...(variable !== undefined ? { variable } : {}) });
        return;
      }
      case 'case': {
        this.next();
        const words: ShellWord[] = [this.expectPlainWord("a word after 'case'")];
        this.skipNewlines();
        this.expectWord('in');
        const scripts: ShellScript[] = [];
        for (;;) {
          this.skipNewlines();
          if (this.peekReserved() === 'esac') {
            this.next();
            break;
          }
          const open = this.peek();
          if (open.kind === 'op' && open.op === '(') this.next();
          words.push(this.expectPlainWord('a case pattern'));
          for (let t = this.peek(); t.kind === 'op' && t.op === '|'; t = this.peek()) {
            this.next();
            words.push(this.expectPlainWord('a case pattern'));
          }
          this.expectOp(')');
          scripts.push({ commands: this.parseList(new Set(['esac']), new Set([';;', ';&', ';;&'])) });
          const end = this.peek();
          if (end.kind === 'op' && (end.op === ';;' || end.op === ';&' || end.op === ';;&')) this.next();
          else if (this.peekReserved() !== 'esac') throw this.unexpected(end);
        }
        out.push(compound('case', scripts, words, this.parseRedirects()));
        return;
      }
      case 'function': {
        this.next();
        this.expectPlainWord("a function name after 'function'");
        const paren = this.peek();
        if (paren.kind === 'op' && paren.op === '(') {
          this.next();
          this.expectOp(')');
        }
        this.skipNewlines();
        const body: ShellCommand[] = [];
        this.parseCommand(body);
        out.push(compound('function', [{ commands: body }], [], []));
        return;
      }
      case '[[': {
        this.next();
        const words: ShellWord[] = [];
        for (;;) {
          const t = this.peek(true);
          if (t.kind === 'eof') throw new ShellSyntaxError("'[[' is never closed with ']]'", t.start);
          if (t.kind === 'op' && t.op === '\n') {
            this.next(true);
            continue;
          }
          if (t.kind !== 'word') throw this.unexpected(t);
          this.next(true);
          if (reservedWord(t.word) === ']]') break;
          words.push(t.word);
        }
        out.push(compound('test', [], words, this.parseRedirects()));
        return;
      }
      case undefined:
      case '!':
      case 'time':
        out.push(this.parseSimple());
        return;
      default:
        throw new ShellSyntaxError(`'${reserved}' is out of place`, tok.start);
    }
  }

  /** `( list )`. */
  private parseSubshell(): CompoundCommand {
    this.expectOp('(');
    const body = this.parseList(new Set(), new Set([')']));
    this.expectOp(')');
    return compound('subshell', [{ commands: body }], [], this.parseRedirects());
  }

  private enter(at: number): void {
    if (this.depth + 1 > MAX_DEPTH) throw new ShellSyntaxError('the command line nests commands too deeply to check', at, true);
    this.depth++;
  }

  /**
   * `((…))` as a command: bash reads arithmetic, dash (Debian's `/bin/sh`) reads nested subshells
   * and runs them. Both readings are kept, so the commands either shell would run are checked; a
   * line only one of them can read is taken as that one, and a line they would split at different
   * places is refused. `$((…))` is arithmetic in both when its parentheses pair up as `))`, and
   * bash reads it as `$( (…) )` when they do not (`bothAlways: false`: the second reading only
   * when the first fails).
   */
  private readBothWays<A, B>(start: number, asBash: () => A, asDash: () => B, bothAlways = true): { bash?: A; dash?: B } {
    // Each reading may hold more of them: their nesting is bounded, so the work stays linear.
    if (this.dualDepth >= MAX_DUAL_READINGS) throw new ShellSyntaxError('the command line nests (( … )) too deeply to check', start, true);
    this.dualDepth++;
    const pending = [...this.heredocs];
    const depth = this.depth;
    const attempt = <T>(read: () => T): { value: T; end: number; heredocs: PendingHeredoc[] } | ShellSyntaxError => {
      this.peeked = undefined;
      this.heredocs = [...pending];
      this.depth = depth;
      try {
        const value = read();
        return { value, end: this.pos, heredocs: this.heredocs };
      } catch (error) {
        if (error instanceof ShellSyntaxError) return error;
        throw error;
      }
    };
    const bash = attempt(asBash);
    if (!bothAlways && !(bash instanceof ShellSyntaxError)) {
      this.dualDepth--;
      this.peeked = undefined;
      this.depth = depth;
      this.pos = bash.end;
      this.heredocs = bash.heredocs;
      return { bash: bash.value };
    }
    const dash = attempt(asDash);
    this.dualDepth--;
    this.peeked = undefined;
    this.depth = depth;
    // A reading stopped by a bound is not a reading that fails: the line is refused, never taken the other way.
    if (bash instanceof ShellSyntaxError && bash.bound) throw bash;
    if (dash instanceof ShellSyntaxError && dash.bound) throw dash;
    if (bash instanceof ShellSyntaxError && dash instanceof ShellSyntaxError) throw bash.position >= dash.position ? bash : dash;
    const taken = bash instanceof ShellSyntaxError ? (dash as Exclude<typeof dash, ShellSyntaxError>) : bash;
    this.pos = taken.end;
    this.heredocs = taken.heredocs;
    if (bash instanceof ShellSyntaxError) return { dash: taken.value as B };
    if (dash instanceof ShellSyntaxError) return { bash: bash.value };
    if (bash.end !== dash.end) throw new ShellSyntaxError('bash and dash would split this (( … )) differently, so what it runs cannot be known', start);
    return { bash: bash.value, dash: dash.value };
  }

  private parseSimple(): ShellCommand {
    const command: SimpleCommand = { type: 'simple', assignments: [], words: [], redirects: [] };
    for (;;) {
      const tok = this.peek();
      if (tok.kind === 'op' && REDIRECTS.has(tok.op)) {
        command.redirects.push(this.parseRedirect());
        continue;
      }
      if (tok.kind !== 'word') break;
      if (command.words.length === 0) {
        const assignment = splitAssignment(tok.word);
        if (assignment) {
          this.next();
          command.assignments.push(assignment);
          continue;
        }
      }
      this.next();
      command.words.push(tok.word);
      if (command.words.length === 1) {
        // `name () compound`: a function definition.
        const paren = this.peek();
        if (paren.kind === 'op' && paren.op === '(' && this.src[paren.start + 1] !== '(') {
          this.next();
          this.expectOp(')');
          this.skipNewlines();
          const body: ShellCommand[] = [];
          this.parseCommand(body);
          return compound('function', [{ commands: body }], [], []);
        }
      }
    }
    if (command.words.length === 0 && command.assignments.length === 0 && command.redirects.length === 0) throw this.unexpected(this.peek());
    return command;
  }

  private parseRedirects(): Redirect[] {
    const out: Redirect[] = [];
    for (let tok = this.peek(); tok.kind === 'op' && REDIRECTS.has(tok.op); tok = this.peek()) out.push(this.parseRedirect());
    return out;
  }

  private parseRedirect(): Redirect {
    const tok = this.next();
    const op = (tok as { op: string }).op;
    const target = this.expectPlainWord(`a target after '${op}'`);
    const redirect: Redirect = { op, target };
    if (op === '<<' || op === '<<-') {
      const quoted = target.parts.some((p) => p.type !== 'literal' || p.quoted);
      this.heredocs.push({ redirect, delimiter: target.parts.map((p) => (p.type === 'literal' ? p.text : '')).join(''), expand: !quoted, stripTabs: op === '<<-' });
    }
    return redirect;
  }

  // ---------------------------------------------------------------- token helpers

  private peek(test = false): Token {
    const cached = this.peeked;
    if (cached && cached.pos === this.pos && cached.test === test) return cached.token;
    const start = this.pos;
    const token = this.lex(test);
    const end = this.pos;
    this.pos = start;
    this.peeked = { pos: start, test, token, end };
    return token;
  }

  private next(test = false): Token {
    const token = this.peek(test);
    this.pos = this.peeked!.end;
    return token;
  }

  private takeWord(): ShellWord {
    return (this.next() as { word: ShellWord }).word;
  }

  private peekReserved(): string | undefined {
    const tok = this.peek();
    return tok.kind === 'word' ? reservedWord(tok.word) : undefined;
  }

  private takeReserved(words: string[]): string {
    const tok = this.peek();
    const word = tok.kind === 'word' ? reservedWord(tok.word) : undefined;
    if (word === undefined || !words.includes(word)) throw this.unexpected(tok, words);
    this.next();
    return word;
  }

  private expectWord(word: string): void {
    this.takeReserved([word]);
  }

  private expectPlainWord(what: string): ShellWord {
    const tok = this.peek();
    if (tok.kind !== 'word') throw new ShellSyntaxError(`expected ${what}, found ${describeToken(tok)}`, tok.start);
    this.next();
    return tok.word;
  }

  private expectOp(op: string): void {
    const tok = this.peek();
    if (tok.kind !== 'op' || tok.op !== op) throw this.unexpected(tok, [op]);
    this.next();
  }

  private unexpected(tok: Token, expected?: string[]): ShellSyntaxError {
    const wanted = expected ? `, expected ${expected.map((e) => `'${e === '\n' ? '\\n' : e}'`).join(' or ')}` : '';
    return new ShellSyntaxError(`unexpected ${describeToken(tok)}${wanted}`, tok.start);
  }

  // ---------------------------------------------------------------- lexer

  private lex(test: boolean): Token {
    const src = this.src;
    for (;;) {
      const c = src[this.pos];
      if (c === ' ' || c === '\t') this.pos++;
      else if (c === '\\' && src[this.pos + 1] === '\n') this.pos += 2;
      else if (c === '#') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++;
      } else break;
    }
    const start = this.pos;
    if (start >= src.length) return { kind: 'eof', start };
    if (test) {
      for (const op of TEST_OPERATORS) {
        if (src.startsWith(op, start)) {
          this.pos += op.length;
          return { kind: 'word', word: { raw: op, parts: [{ type: 'literal', text: op, quoted: false }] }, start };
        }
      }
    }
    if ((src[start] === '<' || src[start] === '>') && src[start + 1] === '(') return { kind: 'word', word: this.readWord(), start };
    for (const op of OPERATORS) {
      if (src.startsWith(op, start)) {
        this.pos += op.length;
        if (op === '\n' && this.heredocs.length > 0) this.readHeredocs();
        return { kind: 'op', op, start };
      }
    }
    const word = this.readWord();
    // `2>file`, `{fd}>file`: the word is the redirection's file descriptor.
    const nextChar = src[this.pos];
    if ((nextChar === '<' || nextChar === '>') && /^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(word.raw) && src[this.pos + 1] !== '(') {
      for (const op of OPERATORS) {
        if (REDIRECTS.has(op) && src.startsWith(op, this.pos)) {
          this.pos += op.length;
          return { kind: 'op', op, fd: word.raw, start };
        }
      }
    }
    return { kind: 'word', word, start };
  }

  private readWord(): ShellWord {
    const src = this.src;
    const start = this.pos;
    const parts: WordPart[] = [];
    const lit = new LiteralBuffer(parts);
    if ((src[start] === '<' || src[start] === '>') && src[start + 1] === '(') {
      this.pos += 2;
      parts.push({ type: 'process-substitution', script: this.parseNested() });
    }
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      if (METACHARS.has(c)) {
        // `name=(a b c)`: an array assignment, read as one word.
        if (c === '(' && ARRAY_ASSIGNMENT.test(src.slice(start, this.pos))) {
          this.pos++;
          lit.flush();
          this.readArrayElements(parts);
          continue;
        }
        break;
      }
      if (c === '\\') {
        const n = src[this.pos + 1];
        if (n === undefined) {
          lit.add('\\', false);
          this.pos++;
        } else if (n === '\n') {
          this.pos += 2;
        } else {
          lit.add(n, true);
          this.pos += 2;
        }
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('a single quote is never closed', this.pos);
        lit.add(src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.pos++;
        lit.flush();
        this.readDoubleQuoted(parts);
      } else if (c === '$') {
        lit.flush();
        this.readDollar(parts, false, lit);
      } else if (c === '`') {
        lit.flush();
        parts.push(this.readBackticks(false));
      } else {
        lit.add(c, false);
        this.pos++;
      }
    }
    lit.flush();
    return { raw: src.slice(start, this.pos), parts };
  }

  private readArrayElements(parts: WordPart[]): void {
    for (;;) {
      const tok = this.lex(false);
      if (tok.kind === 'eof') throw new ShellSyntaxError('an array assignment is never closed with )', tok.start);
      if (tok.kind === 'op' && tok.op === ')') return;
      if (tok.kind === 'op' && tok.op === '\n') continue;
      if (tok.kind !== 'word') throw this.unexpected(tok);
      parts.push(...tok.word.parts);
    }
  }

  /** After the opening `"`: the quoted text up to the closing `"`. */
  private readDoubleQuoted(parts: WordPart[]): void {
    const src = this.src;
    const lit = new LiteralBuffer(parts);
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('a double quote is never closed', this.pos);
      const c = src[this.pos]!;
      if (c === '"') {
        this.pos++;
        lit.flush(true);
        return;
      }
      if (c === '\\') {
        const n = src[this.pos + 1];
        if (n === '\n') this.pos += 2;
        else if (n === '$' || n === '`' || n === '"' || n === '\\') {
          lit.add(n, true);
          this.pos += 2;
        } else {
          lit.add('\\', true);
          this.pos++;
        }
      } else if (c === '$') {
        lit.flush(true);
        this.readDollar(parts, true, lit);
      } else if (c === '`') {
        lit.flush(true);
        parts.push(this.readBackticks(true));
      } else {
        lit.add(c, true);
        this.pos++;
      }
    }
  }

  /** At a `$`: a parameter, a substitution, `$'…'`, `$"…"`, or a plain dollar sign. */
  private readDollar(parts: WordPart[], quoted: boolean, lit: LiteralBuffer): void {
    const src = this.src;
    const n = src[this.pos + 1];
    if (!quoted && n === "'") {
      this.pos += 2;
      lit.add(this.readAnsiC(), true);
      return;
    }
    if (!quoted && n === '"') {
      this.pos += 2;
      this.readDoubleQuoted(parts);
      return;
    }
    if (n === '(' && src[this.pos + 2] === '(') {
      const start = this.pos;
      const { bash, dash } = this.readBothWays(
        start,
        () => {
          this.pos = start + 3;
          return this.readArithmetic();
        },
        () => {
          this.pos = start + 2;
          return this.parseNested();
        },
        false,
      );
      const nested: WordPart[] = [...(bash ?? [])];
      if (dash) nested.push({ type: 'command-substitution', script: dash, quoted });
      parts.push({ type: 'arithmetic', nested });
      return;
    }
    if (n === '(') {
      this.pos += 2;
      parts.push({ type: 'command-substitution', script: this.parseNested(), quoted });
      return;
    }
    if (n === '{') {
      this.pos += 2;
      parts.push(this.readBraceParameter(quoted));
      return;
    }
    const simple = /^(?:[A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])/.exec(src.slice(this.pos + 1, this.pos + 200));
    if (simple) {
      this.pos += 1 + simple[0].length;
      parts.push({ type: 'parameter', name: simple[0], quoted, nested: [] });
      return;
    }
    lit.add('$', quoted);
    this.pos++;
  }

  /** `$( … )`: a whole script, up to its closing parenthesis. */
  private parseNested(): ShellScript {
    if (this.depth + 1 > MAX_DEPTH) throw new ShellSyntaxError('the command line nests substitutions too deeply to check', this.pos, true);
    this.depth++;
    this.peeked = undefined;
    const commands = this.parseList(new Set(), new Set([')']));
    this.expectOp(')');
    this.peeked = undefined;
    this.depth--;
    return { commands };
  }

  /** After `${`: up to the matching `}`, keeping the expansions inside (`${x:-$(cmd)}` runs `cmd`). */
  private readBraceParameter(quoted: boolean): WordPart {
    const src = this.src;
    const open = this.pos - 2;
    const nested: WordPart[] = [];
    const lit = new LiteralBuffer(nested);
    let depth = 0;
    const nameMatch = /^[#!]?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(src.slice(this.pos, this.pos + 200));
    const name = nameMatch ? nameMatch[0] : '';
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('a ${ is never closed with }', open);
      const c = src[this.pos]!;
      if (c === '}' && depth === 0) {
        this.pos++;
        lit.flush();
        break;
      }
      if (c === '{') depth++;
      if (c === '}') depth--;
      if (c === '\\' && this.pos + 1 < src.length) {
        lit.add(src[this.pos + 1]!, true);
        this.pos += 2;
      } else if (c === "'" && !quoted) {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('a single quote is never closed', this.pos);
        lit.add(src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else if (c === '"') {
        this.pos++;
        lit.flush();
        this.readDoubleQuoted(nested);
      } else if (c === '$') {
        lit.flush();
        this.readDollar(nested, true, lit);
      } else if (c === '`') {
        lit.flush();
        nested.push(this.readBackticks(true));
      } else {
        lit.add(c, false);
        this.pos++;
      }
    }
    const whole = src.slice(open + 2, this.pos - 1);
    return { type: 'parameter', name: whole === name ? name : name || whole, quoted, nested: whole === name ? [] : nested };
  }

  /** After `$((` or `((`: up to the matching `))`, keeping expansions inside. */
  private readArithmetic(): WordPart[] {
    const src = this.src;
    const open = this.pos;
    const nested: WordPart[] = [];
    const lit = new LiteralBuffer(nested);
    let depth = 0;
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('an arithmetic expression is never closed with ))', open);
      const c = src[this.pos]!;
      if (c === ')' && depth === 0) {
        if (src[this.pos + 1] !== ')') throw new ShellSyntaxError('an arithmetic expression is never closed with ))', this.pos);
        this.pos += 2;
        lit.flush();
        this.peeked = undefined;
        return nested;
      }
      if (c === '(') depth++;
      if (c === ')') depth--;
      if (c === '$') {
        lit.flush();
        this.readDollar(nested, true, lit);
      } else if (c === '`') {
        lit.flush();
        nested.push(this.readBackticks(true));
      } else if (c === '"') {
        this.pos++;
        lit.flush();
        this.readDoubleQuoted(nested);
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1);
        if (end < 0) throw new ShellSyntaxError('a single quote is never closed', this.pos);
        lit.add(src.slice(this.pos + 1, end), true);
        this.pos = end + 1;
      } else {
        lit.add(c, false);
        this.pos++;
      }
    }
  }

  /** At a backtick: the old-style command substitution, parsed as a script of its own. */
  private readBackticks(inDoubleQuotes: boolean): WordPart {
    const src = this.src;
    const open = this.pos;
    let inner = '';
    this.pos++;
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError('a backtick is never closed', open);
      const c = src[this.pos]!;
      if (c === '`') {
        this.pos++;
        break;
      }
      if (c === '\\') {
        const n = src[this.pos + 1];
        if (n === '$' || n === '`' || n === '\\' || (inDoubleQuotes && n === '"')) {
          inner += n;
          this.pos += 2;
          continue;
        }
      }
      inner += c;
      this.pos++;
    }
    if (this.depth + 1 > MAX_DEPTH) throw new ShellSyntaxError('the command line nests substitutions too deeply to check', open, true);
    return { type: 'command-substitution', script: parseShell(inner, this.depth + 1), quoted: inDoubleQuotes };
  }

  /** After `$'`: bash's ANSI-C quoting, decoded. */
  private readAnsiC(): string {
    const src = this.src;
    const open = this.pos - 2;
    let out = '';
    for (;;) {
      if (this.pos >= src.length) throw new ShellSyntaxError("a $' string is never closed", open);
      const c = src[this.pos]!;
      if (c === "'") {
        this.pos++;
        return out;
      }
      if (c !== '\\') {
        out += c;
        this.pos++;
        continue;
      }
      const n = src[this.pos + 1] ?? '';
      this.pos += 2;
      const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v', '\\': '\\', "'": "'", '"': '"', '?': '?' };
      if (n in simple) {
        out += simple[n];
      } else if (n === 'x') {
        const hex = /^[0-9A-Fa-f]{1,2}/.exec(src.slice(this.pos, this.pos + 2));
        if (!hex) out += '\\x';
        else {
          out += String.fromCharCode(parseInt(hex[0], 16));
          this.pos += hex[0].length;
        }
      } else if (n === 'u' || n === 'U') {
        const hex = new RegExp(`^[0-9A-Fa-f]{1,${n === 'u' ? 4 : 8}}`).exec(src.slice(this.pos, this.pos + 8));
        if (!hex) out += `\\${n}`;
        else {
          const code = parseInt(hex[0], 16);
          out += code <= 0x10ffff ? String.fromCodePoint(code) : '';
          this.pos += hex[0].length;
        }
      } else if (n >= '0' && n <= '7') {
        const oct = /^[0-7]{0,2}/.exec(src.slice(this.pos, this.pos + 2))![0];
        out += String.fromCharCode(parseInt(n + oct, 8) & 0xff);
        this.pos += oct.length;
      } else if (n === 'c') {
        const ch = src[this.pos] ?? '';
        out += String.fromCharCode(ch.toUpperCase().charCodeAt(0) ^ 0x40);
        this.pos++;
      } else {
        out += `\\${n}`;
      }
    }
  }

  /** The whole source as the body of a here-document: quotes are plain text, `$` and backticks expand. */
  readHeredocText(): WordPart[] {
    const src = this.src;
    const parts: WordPart[] = [];
    const lit = new LiteralBuffer(parts);
    while (this.pos < src.length) {
      const c = src[this.pos]!;
      const n = src[this.pos + 1];
      if (c === '\\' && (n === '$' || n === '`' || n === '\\')) {
        lit.add(n, true);
        this.pos += 2;
      } else if (c === '\\' && n === '\n') {
        this.pos += 2;
      } else if (c === '$') {
        lit.flush();
        this.readDollar(parts, true, lit);
      } else if (c === '`') {
        lit.flush();
        parts.push(this.readBackticks(true));
      } else {
        lit.add(c, true);
        this.pos++;
      }
    }
    lit.flush();
    return parts;
  }

  /** After a new line: the bodies of the here-documents opened on the line before. */
  private readHeredocs(): void {
    const pending = this.heredocs;
    this.heredocs = [];
    const src = this.src;
    for (const doc of pending) {
      let body = '';
      for (;;) {
        if (this.pos >= src.length) break;
        const lineEnd = src.indexOf('\n', this.pos);
        const line = src.slice(this.pos, lineEnd < 0 ? src.length : lineEnd);
        this.pos = lineEnd < 0 ? src.length : lineEnd + 1;
        const compared = doc.stripTabs ? line.replace(/^\t+/, '') : line;
        if (compared === doc.delimiter) break;
        body += `${compared}\n`;
      }
      doc.redirect.body = doc.expand ? heredocWord(body, this.depth) : { raw: body, parts: [{ type: 'literal', text: body, quoted: true }] };
    }
  }
}

/** A here-document body with an unquoted delimiter: `$…` and backticks expand (and run) there. */
function heredocWord(body: string, depth: number): ShellWord {
  return { raw: body, parts: new Parser(body, depth).readHeredocText() };
}

class LiteralBuffer {
  private text = '';
  private quoted: boolean | undefined;
  constructor(private readonly parts: WordPart[]) {}
  add(text: string, quoted: boolean): void {
    if (this.quoted !== undefined && this.quoted !== quoted) this.flush();
    this.text += text;
    this.quoted = quoted;
  }
  /** `keepEmpty`: `""` is still an (empty) argument. */
  flush(keepEmpty = false): void {
    if (this.text || (keepEmpty && this.quoted === undefined)) this.parts.push({ type: 'literal', text: this.text, quoted: this.quoted ?? true });
    this.text = '';
    this.quoted = undefined;
  }
}

function compound(kind: CompoundCommand['kind'], scripts: ShellScript[], words: ShellWord[], redirects: Redirect[]): CompoundCommand {
  return { type: 'compound', kind, scripts, words, redirects };
}

/** The reserved word a word spells (unquoted, alone), if any. */
function reservedWord(word: ShellWord): string | undefined {
  if (word.parts.length !== 1) return undefined;
  const part = word.parts[0]!;
  return part.type === 'literal' && !part.quoted && RESERVED.has(part.text) ? part.text : undefined;
}

function splitAssignment(word: ShellWord): { name: string; value: ShellWord } | undefined {
  const first = word.parts[0];
  if (!first || first.type !== 'literal' || first.quoted) return undefined;
  const match = ASSIGNMENT_PREFIX.exec(first.text);
  if (!match) return undefined;
  const rest = first.text.slice(match[0].length);
  const parts: WordPart[] = [...(rest ? [{ type: 'literal' as const, text: rest, quoted: false }] : []), ...word.parts.slice(1)];
  return { name: match[0].replace(/\+?=$/, ''), value: { raw: word.raw.slice(match[0].length), parts } };
}

function describeToken(tok: Token): string {
  if (tok.kind === 'eof') return 'the end of the command line';
  if (tok.kind === 'op') return tok.op === '\n' ? 'a new line' : `'${tok.op}'`;
  return `'${tok.word.raw}'`;
}
