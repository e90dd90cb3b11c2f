import { ERROR_CODES, SDKError, type Guardrail, type GuardrailContext } from '@lousho/core';
import { analyzeCommandLine, basename, type ExecutedCommand, type UnverifiableCommand } from './analyze.js';
import { parseShell, ShellSyntaxError } from './shell-parser.js';
import { normalizePath, resolvePath, wordArgs, type Arg } from './words.js';

/** A command as a rule function sees it. */
export interface GuardedCommand {
  /** Base name, lower-cased: `rm` for `/bin/RM`. */
  program: string;
  /** The arguments after quote removal; `undefined` for one only known when it runs (`$X`, `$(…)`). */
  args: (string | undefined)[];
  /** The command as written. */
  display: string;
  /** The working directory, when the line makes it known. */
  cwd?: string;
}

/**
 * A rule: a command written as you would type it (`'rm -rf /'`, `'git push --force'`, `'npm test'`),
 * or a function of the command returning true (or a reason) when it matches.
 */
export type CommandRule = string | ((command: GuardedCommand) => boolean | string | undefined);

/** Options of `createCommandGuardrail()`. */
export interface CommandGuardrailOptions {
  /** When given, every command the line runs must match one of these (a prefix: `'git status'` allows `git status -s`). */
  allow?: readonly CommandRule[];
  /** A command matching one of these is blocked, however it is spelled (flag order, `-rf` / `-r -f` / `--recursive`, paths like `//`). */
  deny?: readonly CommandRule[];
  /** The tools whose calls carry a command line (default `['shell']`). */
  tools?: readonly string[];
  /** The argument holding the command line (default `'command'`). */
  argument?: string;
  /** The directory commands start in, to resolve relative paths (default: unknown). */
  cwd?: string;
  /**
   * What to do with what no rule can be checked against: a command name computed at run time
   * (`$CMD`), code read from a file, input or an argument (`sh script.sh`, `curl … | sh`,
   * `python3 -c …`, `./build.sh`), `eval` of computed text, a loader or shell variable
   * (`LD_PRELOAD=…`, `PATH=…`), a `cd` to a computed directory, a redirection to a computed file.
   * `'block'` (the default) refuses the line. `'allow'` is for deny lists only: an allow list
   * always refuses what it cannot check.
   */
  unverifiable?: 'block' | 'allow';
  /** The guardrail's name (default `'command'`). */
  name?: string;
  /** `'end-run'` (default) or `'deny-call'`: see `Guardrail.onBlock`. */
  onBlock?: 'end-run' | 'deny-call';
}

interface ParsedRule {
  source: string;
  /** The command name as written (`./build.sh`). */
  name: string;
  program: string;
  tokens: Arg[];
}

type CompiledRule = ParsedRule | ((command: GuardedCommand) => boolean | string | undefined);

/** Flags that mean the same to a command, so a rule written with one catches the others. */
const FLAG_SYNONYMS: Record<string, readonly (readonly string[])[]> = {
  rm: [
    ['-r', '-R', '--recursive'],
    ['-f', '--force'],
  ],
  cp: [
    ['-r', '-R', '--recursive'],
    ['-f', '--force'],
  ],
  mv: [['-f', '--force']],
  chmod: [['-R', '--recursive']],
  chown: [['-R', '--recursive']],
  chgrp: [['-R', '--recursive']],
  git: [['-f', '--force']],
  shred: [
    ['-u', '--remove'],
    ['-f', '--force'],
  ],
};

/**
 * Why the command guardrail refused a line, as `code` on its verdict (the reason says the same in
 * words): stable, so a host can act on it.
 */
export type CommandRefusalCode =
  | 'LOUSHO_COMMAND_DENIED'
  | 'LOUSHO_COMMAND_NOT_ALLOWED'
  | 'LOUSHO_COMMAND_UNVERIFIABLE'
  | 'LOUSHO_COMMAND_OUTSIDE_WORKSPACE'
  | 'LOUSHO_COMMAND_UNPARSABLE'
  | 'LOUSHO_COMMAND_TOO_LONG'
  | 'LOUSHO_COMMAND_MISSING';

/** The command guardrail's verdict: `{ block, code }`. */
export interface CommandRefusal {
  block: string;
  code: CommandRefusalCode;
}

/** Longest command line the guardrail reads (characters); a longer one is refused, not skimmed. */
export const MAX_COMMAND_LINE_LENGTH = 65_536;

/** Builtins that only move the shell around: an allow list need not name them. */
const ALWAYS_ALLOWED = new Set(['cd', 'pushd', 'popd']);

/**
 * A tool guardrail for shell commands. It parses the command line as the shell would (quotes,
 * escapes, `;` `&&` `||` `|`, `$( )` and backticks, subshells, here-documents, variable prefixes,
 * wrappers such as `sudo`, `env`, `xargs`, `find -exec` and `sh -c`), then checks every command it
 * would run against `deny` and `allow`. A line it cannot parse, or a command it cannot see, is blocked.
 */
export function createCommandGuardrail(options: CommandGuardrailOptions = {}): Guardrail {
  if (typeof options !== 'object' || options === null) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createCommandGuardrail(options) takes an object { allow?, deny?, tools?, … }.', {
      hint: "e.g. createCommandGuardrail({ deny: ['rm -rf /', 'git push --force'] })",
    });
  }
  const known = new Set(['allow', 'deny', 'tools', 'argument', 'cwd', 'unverifiable', 'name', 'onBlock']);
  const unknown = Object.keys(options).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createCommandGuardrail() does not support ${unknown.map((k) => `'${k}'`).join(', ')}.`, {
      hint: 'Options: allow, deny, tools, argument, cwd, unverifiable, name, onBlock.',
    });
  }
  const deny = compileRules(options.deny, 'deny');
  const allow = options.allow === undefined ? undefined : compileRules(options.allow, 'allow');
  const tools = options.tools ?? ['shell'];
  const argument = options.argument ?? 'command';
  const blockUnverifiable = (options.unverifiable ?? 'block') === 'block';
  if (options.unverifiable !== undefined && options.unverifiable !== 'block' && options.unverifiable !== 'allow') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `unverifiable must be 'block' or 'allow', got ${JSON.stringify(options.unverifiable)}.`);
  }
  if (allow && options.unverifiable === 'allow') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, "unverifiable: 'allow' cannot be used with an allow list: an allow list always refuses what it cannot check.", {
      hint: "Name the commands you trust in allow (e.g. allow: ['python3 -m pytest']), or drop allow and keep a deny list.",
    });
  }
  if (options.cwd !== undefined && (typeof options.cwd !== 'string' || !options.cwd.startsWith('/'))) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `cwd must be an absolute path, got ${JSON.stringify(options.cwd)}.`);
  }

  const check = (ctx: GuardrailContext): CommandRefusal | undefined => {
    if (ctx.stage !== 'tool' || !tools.includes(ctx.toolName)) return undefined;
    const line = (ctx.args as Record<string, unknown> | null | undefined)?.[argument];
    if (typeof line !== 'string') return { block: `The call has no '${argument}' text to check.`, code: 'LOUSHO_COMMAND_MISSING' };
    return checkCommandLine(line, { deny, allow, blockUnverifiable: blockUnverifiable || allow !== undefined, cwd: options.cwd });
  };
  return { name: options.name ?? 'command', check, ...(options.onBlock ? { onBlock: options.onBlock } : {}) };
}

function checkCommandLine(
  line: string,
  config: { deny: CompiledRule[]; allow: CompiledRule[] | undefined; blockUnverifiable: boolean; cwd: string | undefined },
): CommandRefusal | undefined {
  if (line.length > MAX_COMMAND_LINE_LENGTH) {
    return { block: `The command line is ${line.length} characters long, over the ${MAX_COMMAND_LINE_LENGTH} the guardrail reads, so it cannot be checked. Split it into shorter commands.`, code: 'LOUSHO_COMMAND_TOO_LONG' };
  }
  let analysis;
  try {
    analysis = analyzeCommandLine(line, config.cwd !== undefined ? { cwd: config.cwd } : {});
  } catch (error) {
    if (!(error instanceof ShellSyntaxError)) throw error;
    return { block: `The command line cannot be parsed (${error.message}), so it cannot be checked.`, code: 'LOUSHO_COMMAND_UNPARSABLE' };
  }
  for (const command of analysis.commands) {
    for (const rule of config.deny) {
      const hit = matchDeny(rule, command);
      if (hit) return { block: `'${command.display}' is denied${hit === true ? '' : `: ${hit}`}.`, code: 'LOUSHO_COMMAND_DENIED' };
    }
  }
  const outside = analysis.unverifiable.find((u) => u.kind === 'outside-workspace');
  if (outside) return { block: `'${outside.display}' is refused: ${outside.reason}. Write inside the workspace instead.`, code: 'LOUSHO_COMMAND_OUTSIDE_WORKSPACE' };
  if (config.blockUnverifiable) {
    const first = analysis.unverifiable.find((u) => !vouched(u, config.allow));
    if (first) return { block: `'${first.display}' cannot be checked: ${first.reason}. Run plain commands the guardrail can read instead.`, code: 'LOUSHO_COMMAND_UNVERIFIABLE' };
  }
  if (config.allow) {
    for (const command of analysis.commands) {
      if (command.transparent || ALWAYS_ALLOWED.has(command.program)) continue;
      if (!config.allow.some((rule) => matchAllow(rule, command))) return { block: `'${command.display}' is not on the list of allowed commands.`, code: 'LOUSHO_COMMAND_NOT_ALLOWED' };
    }
  }
  return undefined;
}

/**
 * Whether an allow rule names this command far enough to vouch for code the guardrail cannot read:
 * `'python3 -m pytest'` for `python3 -m pytest -x`, `'./build.sh'` for `./build.sh --fast`,
 * or a rule function that returns true for it. Never for `'python3'` alone.
 */
function vouched(u: UnverifiableCommand, allow: CompiledRule[] | undefined): boolean {
  if (!allow || !u.command || u.pin === undefined) return false;
  const command = u.command;
  return allow.some((rule) => {
    if (typeof rule === 'function') return runFunction(rule, command) !== false;
    if (rule.tokens.length < u.pin! || !matchAllow(rule, command)) return false;
    // A command run by its path is vouched for only by a rule naming that same path.
    return !command.name.includes('/') || normalizePath(rule.name) === normalizePath(command.name);
  });
}

function compileRules(rules: readonly CommandRule[] | undefined, list: 'allow' | 'deny'): CompiledRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${list} must be an array of commands (strings) or functions.`, { hint: `e.g. ${list}: ['rm -rf /']` });
  }
  return rules.map((rule, i) => {
    if (typeof rule === 'function') return rule;
    if (typeof rule !== 'string') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${list}[${i}] must be a command string or a function, got ${typeof rule}.`);
    }
    return parseRule(rule, `${list}[${i}]`);
  });
}

function parseRule(source: string, where: string): ParsedRule {
  const fail = (why: string) =>
    new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${where} (${JSON.stringify(source)}) ${why}.`, {
      hint: "Write one command as you would type it, e.g. 'rm -rf /' or 'git push --force', or pass a function (command) => boolean.",
    });
  let script;
  try {
    script = parseShell(source);
  } catch (error) {
    throw fail(`is not a valid command (${(error as Error).message})`);
  }
  const [only, ...more] = script.commands;
  if (!only || more.length > 0 || only.type !== 'simple' || only.assignments.length > 0 || only.redirects.length > 0 || only.words.length === 0) {
    throw fail('must be exactly one plain command');
  }
  const args = only.words.flatMap(wordArgs);
  if (args.length !== only.words.length || args.some((a) => a.text === undefined)) throw fail('must not use expansions ($…, braces)');
  const [name, ...tokens] = args as [Arg, ...Arg[]];
  return { source, name: name.text!, program: basename(name.text!).toLowerCase(), tokens };
}

function guarded(command: ExecutedCommand): GuardedCommand {
  return { program: command.program, args: command.args.map((a) => a.text), display: command.display, ...(command.cwd !== undefined ? { cwd: command.cwd } : {}) };
}

function runFunction(rule: (command: GuardedCommand) => boolean | string | undefined, command: ExecutedCommand): boolean | string {
  const verdict = rule(guarded(command));
  return typeof verdict === 'string' ? verdict || true : verdict === true;
}

// ------------------------------------------------------------------ deny: any spelling

function matchDeny(rule: CompiledRule, command: ExecutedCommand): boolean | string {
  if (typeof rule === 'function') return runFunction(rule, command);
  if (rule.program !== command.program) return false;
  const args = command.cwdUnknown ? command.args.map(unknownIfRelative) : command.args;
  const { options, positionals } = splitArgs(args);
  const missing = rule.tokens.filter((token) => {
    const t = token.text!;
    return !(isFlag(token) ? flagPresent(rule.program, t, options) : positionals.some((a) => positionalMatches(a, token, command.cwd)));
  });
  if (missing.length === 0) return `it matches the rule '${rule.source}'`;
  // Arguments only known at run time could be the missing ones: assume the worst. A quoted one is
  // one word (one missing token at most); an unquoted one may split into any number of words.
  const dynamic = args.filter((a) => a.text === undefined && missing.some((token) => couldBe(a, token)));
  if (dynamic.length === 0 || !missing.every((token) => dynamic.some((a) => couldBe(a, token)))) return false;
  if (dynamic.some((a) => a.split) || missing.length <= dynamic.length) {
    const unknown = dynamic.map((a) => (a.relativeTail !== undefined ? `where ${a.raw} points` : a.raw)).join(', ');
    return `it may match the rule '${rule.source}' (${unknown} is only known when it runs)`;
  }
  return false;
}

function isFlag(token: Arg): boolean {
  return token.text!.startsWith('-') && token.text!.length > 1 && !token.glob;
}

/** After a `cd` to a computed directory, a relative path (`.`, `build`) could be any place ending like it. */
function unknownIfRelative(arg: Arg): Arg {
  const t = arg.glob ? arg.glob.dir : arg.text;
  if (t === undefined || t.startsWith('-') || t.startsWith('/') || t.startsWith('~')) return arg;
  const tail = normalizePath(t).replace(/^(?:\.\.(?:\/|$))+/, '').replace(/^\.$/, '');
  return { raw: arg.raw, relativeTail: tail };
}

/** Whether a word only known at run time could turn out to be `token` (`"$DIR/build"` is never `/`, nor a flag). */
function couldBe(arg: Arg, token: Arg): boolean {
  if (arg.relativeTail !== undefined) {
    if (isFlag(token) || token.glob || !looksLikePath(token.text!)) return false;
    const target = normalizePath(token.text!);
    return arg.relativeTail === '' || target === arg.relativeTail || target.endsWith(`/${arg.relativeTail}`);
  }
  if (arg.lastSegment === undefined) return true;
  if (isFlag(token) || token.glob || !looksLikePath(token.text!)) return false;
  const last = normalizePath(token.text!).split('/').pop()!;
  return last.toLowerCase() === arg.lastSegment.toLowerCase();
}

function splitArgs(args: Arg[]): { options: string[]; positionals: Arg[] } {
  const options: string[] = [];
  const positionals: Arg[] = [];
  let ended = false;
  for (const a of args) {
    if (a.text === undefined) continue;
    if (!ended && a.text === '--') ended = true;
    else if (!ended && a.text.startsWith('-') && a.text.length > 1 && !a.glob) options.push(a.text);
    else positionals.push(a);
  }
  return { options, positionals };
}

/** Whether the command's options include the rule's flag (a cluster `-rf` needs each letter). */
function flagPresent(program: string, flag: string, options: string[]): boolean {
  if (options.includes(flag)) return true;
  if (flag.startsWith('--')) return synonymsOf(program, flag.split('=')[0]!).some((f) => optionGiven(f, options, flag.includes('=') ? flag : undefined));
  return [...flag.slice(1)].every((letter) => synonymsOf(program, `-${letter}`).some((f) => optionGiven(f, options)));
}

function synonymsOf(program: string, flag: string): readonly string[] {
  return FLAG_SYNONYMS[program]?.find((set) => set.includes(flag)) ?? [flag];
}

function optionGiven(flag: string, options: string[], exact?: string): boolean {
  if (flag.startsWith('--')) {
    return options.some((o) => {
      if (!o.startsWith('--')) return false;
      const [name] = o.split('=', 1) as [string];
      if (exact !== undefined) return o === exact;
      // getopt_long accepts any unambiguous prefix: `--rec` is `--recursive`.
      return name === flag || (name.length >= 4 && flag.startsWith(name));
    });
  }
  const letter = flag[1]!;
  return options.some((o) => !o.startsWith('--') && o.slice(1).includes(letter));
}

function looksLikePath(text: string): boolean {
  return text.startsWith('/') || text.startsWith('~') || text.startsWith('.') || text.includes('/');
}

function positionalMatches(arg: Arg, token: Arg, cwd: string | undefined): boolean {
  const text = arg.text!;
  const wanted = token.text!;
  if (token.glob) return token.glob.pattern.test(text) || token.glob.pattern.test(normalizePath(text));
  if (!looksLikePath(wanted)) return text === wanted;
  // Paths: `//`, `/./`, `/tmp/..`, a trailing slash, and (on case-insensitive file systems) case are the same place.
  const target = normalizePath(wanted).toLowerCase();
  const resolved = resolvePath(cwd, text).toLowerCase();
  if (resolved === target) return true;
  // `~/../..`, or `../..` from an unknown directory: some ancestor, maybe `/`. Only the part after the `..`s is known.
  const climb = /^(?:~\/|(?=\.\.))(?:\.\.(?:\/|$))+/.exec(cwd === undefined || resolved.startsWith('~') ? resolved : '');
  if (climb) {
    const tail = resolved.slice(climb[0].length);
    if (tail === '' || target === `/${tail}` || target.endsWith(`/${tail}`)) return true;
  }
  if (arg.glob) {
    // `rm -rf /*` empties `/`: a pattern listing a directory's entries counts as the directory.
    if (resolvePath(cwd, arg.glob.dir).toLowerCase() === target) return true;
    return arg.glob.pattern.test(wanted) || arg.glob.pattern.test(normalizePath(wanted));
  }
  return false;
}

// ------------------------------------------------------------------ allow: an exact prefix

function matchAllow(rule: CompiledRule, command: ExecutedCommand): boolean {
  if (typeof rule === 'function') return runFunction(rule, command) !== false;
  if (rule.program !== command.program) return false;
  return rule.tokens.every((token, i) => {
    const arg = command.args[i];
    if (arg?.text === undefined) return false;
    return token.glob ? token.glob.pattern.test(arg.text) : arg.text === token.text;
  });
}
