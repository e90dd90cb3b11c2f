import { findHiddenCode } from './code-runners.js';
import { isRiskyVariable } from './risky-variables.js';
import type { Redirect, ShellCommand, ShellScript, ShellWord, WordPart } from './shell-ast.js';
import { parseShell, ShellSyntaxError } from './shell-parser.js';
import { normalizePath, resolvePath, wordArgs, type Arg } from './words.js';

/** One command the line would run (nested ones and those behind wrappers such as `sudo` included). */
export interface ExecutedCommand {
  /** The command name's base name, lower-cased (`/usr/bin/RM` → `rm`). */
  program: string;
  /** The command name as written, after quote removal. */
  name: string;
  /** Its arguments. */
  args: Arg[];
  /** The command as written, for messages. */
  display: string;
  /** The working directory it runs in, when the line makes it known (`cd /; …`). */
  cwd?: string;
  /** Set after a `cd` to a directory only known when it runs: relative paths could be anywhere. */
  cwdUnknown?: true;
  /** A wrapper that only runs the command after it (`env`, `nice`, `xargs`, `sh -c`): an allow list need not name it. */
  transparent: boolean;
}

/**
 * Something the line does that no rule can be checked against (a computed command name, code from
 * a file, input or an argument, a loader variable, a `cd` to a computed place), or a write outside
 * the workspace.
 */
export interface UnverifiableCommand {
  display: string;
  reason: string;
  /** `'outside-workspace'`: a redirection writes outside the workspace; `'unverifiable'`: anything else. */
  kind: 'unverifiable' | 'outside-workspace';
  /** The command it belongs to, when an allow rule may vouch for it. */
  command?: ExecutedCommand;
  /** How many leading arguments an allow rule must name to vouch for it (absent: none can). */
  pin?: number;
}

export interface CommandAnalysis {
  commands: ExecutedCommand[];
  unverifiable: UnverifiableCommand[];
}

/** Wrappers inside wrappers deeper than this are refused. */
const MAX_WRAPPER_DEPTH = 16;

/**
 * Every command `line` would run: the simple commands of the line and of its substitutions,
 * function bodies, here-documents and `sh -c` / `eval` strings, with wrappers (`sudo`, `env`,
 * `xargs`, `find -exec`, …) unwrapped. Throws `ShellSyntaxError` when the line is not valid shell.
 */
export function analyzeCommandLine(line: string, options: { cwd?: string } = {}): CommandAnalysis {
  const walker = new Walker(options.cwd);
  walker.script(parseShell(line), { cwd: options.cwd, cwdUnknown: false }, 0);
  return { commands: walker.commands, unverifiable: walker.unverifiable };
}

interface WalkState {
  cwd: string | undefined;
  /** After a `cd` to a computed place: where relative paths point is unknown. */
  cwdUnknown: boolean;
}

/** Where a redirection may write without being refused, besides the workspace. */
const HARMLESS_TARGETS = /^\/dev\/(?:null|stdout|stderr|tty|fd\/\d+)$/;
/** Redirections that open their target for writing (`>&word` too, unless `word` is a file descriptor). */
const WRITES = new Set(['>', '>>', '>|', '&>', '&>>', '<>', '>&']);
/** Builtins whose `NAME=value` arguments set variables. */
const DECLARERS = new Set(['export', 'declare', 'typeset', 'local', 'readonly']);
/** Commands that set variables named in their arguments. */
const SETTERS = new Set([...DECLARERS, 'read', 'mapfile', 'readarray', 'printf', 'getopts', 'env', 'sudo', 'doas']);
/** Command names run from these directories are the system's own, not a script of the workspace. */
const SYSTEM_DIRS = new Set(['/bin', '/usr/bin', '/sbin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin']);

type Inner =
  /** `chdir`: the command runs in another directory (`env -C DIR`, `sudo -D DIR`); `'unknown'`: one per found file (`find -execdir`). */
  | { kind: 'command'; argv: Arg[]; chdir?: Arg | 'unknown' }
  | { kind: 'script'; text: string }
  | { kind: 'opaque'; reason: string }
  | { kind: 'none' };

interface Wrapper {
  transparent: boolean;
  unwrap(args: Arg[]): Inner[];
}

class Walker {
  readonly commands: ExecutedCommand[] = [];
  readonly unverifiable: UnverifiableCommand[] = [];

  /** `root`: the workspace (the guardrail's `cwd`); unknown, it is wherever the line starts. */
  constructor(private readonly root: string | undefined) {}

  private refuse(display: string, reason: string, extra: Partial<UnverifiableCommand> = {}): void {
    this.unverifiable.push({ display, reason, kind: 'unverifiable', ...extra });
  }

  script(script: ShellScript, state: WalkState, depth: number): void {
    for (const command of script.commands) this.command(command, state, depth);
  }

  private command(command: ShellCommand, state: WalkState, depth: number): void {
    if (command.type === 'compound') {
      if (command.variable !== undefined && isRiskyVariable(command.variable)) this.refuse(`for ${command.variable}`, riskyReason(command.variable));
      for (const word of command.words) this.word(word, state, depth);
      for (const r of command.redirects) this.redirect(r, state, depth);
      // A subshell's (or a function's) `cd` does not change the directory of what follows it.
      const inner = command.kind === 'subshell' || command.kind === 'function' ? { ...state } : state;
      for (const script of command.scripts) this.script(script, inner, depth);
      return;
    }
    for (const a of command.assignments) {
      if (isRiskyVariable(a.name)) this.refuse(`${a.name}=${a.value.raw}`, riskyReason(a.name));
      this.word(a.value, state, depth);
      this.arithmeticValue(wordArgs(a.value)[0]?.text, state, depth);
    }
    for (const r of command.redirects) this.redirect(r, state, depth);
    for (const word of command.words) this.word(word, state, depth);
    const argv = command.words.flatMap(wordArgs);
    if (argv.length > 0) this.run(argv, state, depth, command.words.map((w) => w.raw).join(' '));
  }

  /**
   * bash evaluates a variable's value again as arithmetic (`$((x))`, `((x))`, `[[ $x -eq 1 ]]`, an
   * array index), and runs the `$(…)` of an index there: `x='a[$(rm -rf /)]'; echo $((x))`. A value
   * written with `$(` or a backtick is read as a script as well, so what it would run is checked.
   */
  private arithmeticValue(text: string | undefined, state: WalkState, depth: number): void {
    if (text === undefined || !(text.includes('$(') || text.includes('`'))) return;
    try {
      this.script(parseShell(text, depth + 1), { ...state }, depth + 1);
    } catch (error) {
      if (!(error instanceof ShellSyntaxError) || error.bound) throw error;
    }
  }

  private redirect(r: Redirect, state: WalkState, depth: number): void {
    this.word(r.target, state, depth);
    if (r.body) this.word(r.body, state, depth);
    if (WRITES.has(r.op)) this.checkWrite(r, state);
  }

  /** A redirection that writes: inside the workspace, to `/dev/null` and the like, or refused. */
  private checkWrite(r: Redirect, state: WalkState): void {
    const display = `${r.op}${r.target.raw}`;
    const [target, ...more] = wordArgs(r.target);
    const text = target?.text;
    if (r.op === '>&' && text !== undefined && /^(?:\d+|-)$/.test(text)) return;
    if (text === undefined || more.length > 0 || target!.glob) {
      this.refuse(display, `it writes to a file only known when it runs (${r.target.raw})`);
      return;
    }
    if (HARMLESS_TARGETS.test(normalizePath(text))) return;
    if (state.cwdUnknown && !text.startsWith('/') && !text.startsWith('~')) {
      this.refuse(display, 'it writes to a relative path after a cd to a directory only known when it runs');
      return;
    }
    if (!this.insideWorkspace(resolvePath(state.cwd, text))) {
      this.unverifiable.push({ display, kind: 'outside-workspace', reason: `it writes to ${text}, outside the workspace${this.root ? ` (${this.root})` : ''}` });
    }
  }

  private insideWorkspace(path: string): boolean {
    if (this.root === undefined) return !path.startsWith('/') && !path.startsWith('~') && path !== '..' && !path.startsWith('../');
    const root = normalizePath(this.root);
    return path === root || path.startsWith(root === '/' ? '/' : `${root}/`);
  }

  /** Substitutions inside a word run too (before the command they are part of). */
  private word(word: ShellWord, state: WalkState, depth: number): void {
    for (const part of word.parts) this.part(part, state, depth);
  }

  private part(part: WordPart, state: WalkState, depth: number): void {
    if (part.type === 'command-substitution' || part.type === 'process-substitution') this.script(part.script, { ...state }, depth);
    else if (part.type === 'parameter' || part.type === 'arithmetic') for (const p of part.nested) this.part(p, state, depth);
  }

  private run(argv: Arg[], state: WalkState, depth: number, display = argv.map((a) => a.raw).join(' ')): void {
    if (depth > MAX_WRAPPER_DEPTH) {
      this.refuse(display, 'commands are wrapped in other commands too deeply to check');
      return;
    }
    const [nameArg, ...args] = argv as [Arg, ...Arg[]];
    if (nameArg.text === undefined) {
      this.refuse(display, `the command name ${nameArg.raw} is only known when it runs`);
      return;
    }
    if (nameArg.glob) {
      this.refuse(display, `the command name ${nameArg.raw} is a file name pattern`);
      return;
    }
    const name = nameArg.text;
    const program = basename(name).toLowerCase();
    const wrapper = WRAPPERS[program];
    const executed: ExecutedCommand = {
      program,
      name,
      args,
      display,
      transparent: wrapper?.transparent ?? false,
      ...(state.cwd !== undefined ? { cwd: state.cwd } : {}),
      ...(state.cwdUnknown ? { cwdUnknown: true as const } : {}),
    };
    this.commands.push(executed);
    if (program === 'cd' || program === 'pushd' || program === 'popd' || program === 'chdir') this.changeDirectory(program, args, state, display);
    if (name.includes('/') && !SYSTEM_DIRS.has(normalizePath(name.slice(0, name.lastIndexOf('/')) || '/'))) {
      this.refuse(display, `it runs the file ${name}, which the guardrail cannot read`, { command: executed, pin: 0 });
    }
    const hidden = findHiddenCode(program, args);
    if (hidden) this.refuse(display, hidden.reason, { command: executed, ...(Number.isFinite(hidden.pin) ? { pin: hidden.pin } : {}) });
    if (SETTERS.has(program)) this.checkSetsVariables(program, args, display);
    if (DECLARERS.has(program)) for (const a of args) this.arithmeticValue(a.text?.slice(a.text.indexOf('=') + 1), state, depth);
    if (!wrapper) return;
    for (const inner of wrapper.unwrap(args)) {
      if (inner.kind === 'command') {
        if (inner.argv.length > 0) this.run(inner.argv, inner.chdir === undefined ? state : this.movedState(inner.chdir, state, display), depth + 1);
      } else if (inner.kind === 'script') {
        try {
          this.script(parseShell(inner.text, depth + 1), { ...state }, depth + 1);
        } catch (error) {
          // Past a bound the whole line is refused, whatever the policy for what cannot be checked.
          if (!(error instanceof ShellSyntaxError) || error.bound) throw error;
          this.refuse(display, `the script it runs is not valid shell (${error.message})`);
        }
      } else if (inner.kind === 'opaque') {
        this.refuse(display, inner.reason);
      }
    }
  }

  /** `cd DIR`: the directory of what follows; a computed one (`cd "$X"`, `cd -`, `popd`) is refused. */
  private changeDirectory(program: string, args: Arg[], state: WalkState, display: string): void {
    const target = args.find((a) => a.text === undefined || a.text === '-' || !a.text.startsWith('-') || /^[+-]\d+$/.test(a.text));
    if (program !== 'popd' && !target) {
      state.cwd = '~';
      state.cwdUnknown = false;
      return;
    }
    const text = target?.text;
    const computed = program === 'popd' || text === undefined || text === '-' || /^[+-]\d+$/.test(text) || !!target!.glob || (text.startsWith('~') && text !== '~' && !text.startsWith('~/'));
    if (computed) {
      state.cwd = undefined;
      state.cwdUnknown = true;
      this.refuse(display, `it changes to a directory only known when it runs (${target?.raw ?? program}), so the paths after it cannot be checked`);
      return;
    }
    if (!state.cwdUnknown || text.startsWith('/') || text.startsWith('~')) {
      state.cwd = resolvePath(state.cwd, text);
      state.cwdUnknown = false;
    }
  }

  /** The state of a command a wrapper runs in another directory. */
  private movedState(chdir: Arg | 'unknown', state: WalkState, display: string): WalkState {
    if (chdir === 'unknown') return { cwd: undefined, cwdUnknown: true };
    const moved = { ...state };
    this.changeDirectory('cd', [chdir], moved, display);
    return moved;
  }

  /** `export NAME=…`, `declare -n`, `read NAME`, `printf -v NAME`: setting a loader or shell variable is refused. */
  private checkSetsVariables(program: string, args: Arg[], display: string): void {
    const names: string[] = [];
    if (DECLARERS.has(program)) {
      if (args.some((a) => a.text !== undefined && /^-[a-zA-Z]*n/.test(a.text))) {
        this.refuse(display, `${program} -n makes a name refer to another variable, which the guardrail cannot follow`);
        return;
      }
      for (const a of args) {
        if (a.text === undefined) this.refuse(display, `${program} sets a variable only known when it runs (${a.raw})`);
        // `export PATH` alone only exports what is already there; `export PATH=…` sets it.
        else if (!a.text.startsWith('-') && a.text.includes('=')) names.push(a.text.split('=')[0]!.replace(/\+$/, ''));
      }
    } else if (program === 'env' || program === 'sudo' || program === 'doas') {
      for (const a of args) if (a.text !== undefined && /^[A-Za-z_][A-Za-z0-9_]*=/.test(a.text)) names.push(a.text.split('=')[0]!);
    } else if (program === 'printf') {
      const i = args.findIndex((a) => a.text === '-v');
      if (i >= 0) names.push(args[i + 1]?.text ?? '');
    } else if (program === 'getopts') {
      if (args[1]?.text !== undefined) names.push(args[1].text);
    } else {
      const operands = args.filter((a) => a.text !== undefined && !a.text.startsWith('-')).map((a) => a.text!);
      names.push(...(program === 'read' ? operands : operands.slice(-1)));
      if (program !== 'read' && operands.length === 0) names.push('MAPFILE');
    }
    for (const n of names) if (isRiskyVariable(n)) this.refuse(display, riskyReason(n));
  }
}

function riskyReason(name: string): string {
  return `it sets ${name}, which changes what commands run (the loader, the shell or an interpreter reads it)`;
}

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1) || path;
}

// ------------------------------------------------------------------ wrappers

const dynamicArg = (raw: string, split = false): Arg => (split ? { raw, split } : { raw });

/** The index after the options at `start` (`withValue` options take the next word), or -1 when an option is only known at run time. */
function skipOptions(args: Arg[], start: number, withValue: readonly string[]): number {
  let i = start;
  while (i < args.length) {
    const a = args[i]!;
    if (a.text === undefined) return -1;
    const t = a.text;
    if (t === '--') return i + 1;
    if (!t.startsWith('-') || t === '-') return i;
    if (t.startsWith('--')) {
      const [flag] = t.split('=', 1) as [string];
      i += withValue.includes(flag) && !t.includes('=') ? 2 : 1;
      continue;
    }
    // A cluster of short options; one that takes a value takes the rest of the word, or the next word.
    let consumed = 1;
    for (let k = 1; k < t.length; k++) {
      if (withValue.includes(`-${t[k]}`)) {
        if (k === t.length - 1) consumed = 2;
        break;
      }
    }
    i += consumed;
  }
  return i;
}

/** A short or long option present among the options of `args` (before the first non-option). */
function hasFlag(args: Arg[], short: string[], long: string[] = []): boolean {
  for (const a of args) {
    const t = a.text;
    if (t === undefined || t === '--' || !t.startsWith('-')) return false;
    if (t.startsWith('--') ? long.includes(t.split('=')[0]!) : [...t.slice(1)].some((c) => short.includes(c))) return true;
  }
  return false;
}

/** The value of a string-valued option (`-c 'cmd'`, `--command='cmd'`, `-c'cmd'`), if given. */
function optionValue(args: Arg[], short: string, long: string[]): Arg | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === undefined || t === '--') return undefined;
    for (const l of long) {
      if (t === l) return args[i + 1] ?? dynamicArg('');
      if (t.startsWith(`${l}=`)) return { raw: t, text: t.slice(l.length + 1) };
    }
    if (t.startsWith('-') && !t.startsWith('--')) {
      const at = t.indexOf(short, 1);
      if (at > 0) return at === t.length - 1 ? (args[i + 1] ?? dynamicArg('')) : { raw: t, text: t.slice(at + 1) };
    }
  }
  return undefined;
}

/** Past `NAME=value` words (env and sudo set them for the command); -1 when one is only known at run time. */
function skipAssignments(args: Arg[], start: number): number {
  let i = start;
  while (i >= 0 && i < args.length) {
    const t = args[i]!.text;
    if (t === undefined) return -1;
    if (!/^[A-Za-z_][A-Za-z0-9_]*=/.test(t)) break;
    i++;
  }
  return i;
}

function command(args: Arg[], start: number, opaqueIfEmpty?: string): Inner[] {
  if (start < 0) return [{ kind: 'opaque', reason: 'an option is only known when it runs, so the command it wraps cannot be found' }];
  const argv = args.slice(start);
  if (argv.length === 0) return opaqueIfEmpty ? [{ kind: 'opaque', reason: opaqueIfEmpty }] : [];
  return [{ kind: 'command', argv }];
}

/** `env -C DIR cmd`, `sudo -D DIR cmd`: the wrapped command runs in DIR (an option before `end`). */
function inDirectory(inner: Inner[], args: Arg[], end: number, short: string): Inner[] {
  const dir = end < 0 ? undefined : optionValue(args.slice(0, end), short, ['--chdir']);
  if (!dir) return inner;
  return inner.map((i) => (i.kind === 'command' ? { ...i, chdir: dir } : i));
}

function script(arg: Arg | undefined, what: string): Inner[] {
  if (!arg) return [];
  if (arg.text === undefined) return [{ kind: 'opaque', reason: `${what} is only known when it runs` }];
  return [{ kind: 'script', text: arg.text }];
}

/** `wrapper [options] command…`. */
function simple(withValue: readonly string[], transparent = true, opaqueIfEmpty?: string): Wrapper {
  return { transparent, unwrap: (args) => command(args, skipOptions(args, 0, withValue), opaqueIfEmpty) };
}

/** `wrapper [options] ARG command…` (a duration, a lock file, a new root…). */
function afterOperand(withValue: readonly string[], transparent = true, opaqueIfEmpty?: string): Wrapper {
  return {
    transparent,
    unwrap(args) {
      const i = skipOptions(args, 0, withValue);
      return command(args, i < 0 ? i : i + 1, opaqueIfEmpty);
    },
  };
}

const SHELL_OPTION_VALUES = ['-o', '-O', '+o', '+O', '--rcfile', '--init-file'];

/** `sh -c 'script'` runs the script; `sh file` and `sh` (stdin) run code the guardrail cannot see. */
const shell: Wrapper = {
  transparent: true,
  unwrap(args) {
    let i = 0;
    let inline = false;
    while (i < args.length) {
      const t = args[i]!.text;
      if (t === undefined) return [{ kind: 'opaque', reason: 'a shell option is only known when it runs' }];
      if (t === '--' || t === '-') {
        i++;
        break;
      }
      if (!/^[-+]/.test(t)) break;
      if (SHELL_OPTION_VALUES.includes(t) || (!t.startsWith('--') && /^[-+][a-zA-Z]*[oO]$/.test(t))) {
        if (t.slice(1).includes('c')) inline = true;
        i += 2;
        continue;
      }
      if (!t.startsWith('--') && t.slice(1).includes('c')) inline = true;
      i++;
    }
    if (inline) return script(args[i], 'the script given to -c');
    const file = args[i];
    if (file) return [{ kind: 'opaque', reason: `it runs the script file ${file.raw}, which the guardrail cannot read` }];
    return [{ kind: 'opaque', reason: 'it runs commands from its input, which the guardrail cannot see' }];
  },
};

const WRAPPERS: Record<string, Wrapper> = {
  sudo: {
    transparent: false,
    unwrap(args) {
      const i = skipOptions(args, 0, ['-u', '-g', '-h', '-p', '-C', '-D', '-r', '-t', '-T', '-U', '--user', '--group', '--host', '--prompt', '--close-from', '--chdir', '--role', '--type', '--command-timeout', '--other-user']);
      const opensShell = hasFlag(args, ['s', 'i'], ['--shell', '--login']);
      return inDirectory(command(args, skipAssignments(args, i), opensShell ? 'sudo -s / -i without a command starts a shell' : undefined), args, i, 'D');
    },
  },
  doas: {
    transparent: false,
    unwrap(args) {
      const i = skipOptions(args, 0, ['-u', '-C']);
      return command(args, i, hasFlag(args, ['s']) ? 'doas -s starts a shell' : undefined);
    },
  },
  env: {
    transparent: true,
    unwrap(args) {
      const split = optionValue(args, 'S', ['--split-string']);
      if (split) return script(split, 'the command given to env -S');
      const i = skipOptions(args, 0, ['-u', '--unset', '-C', '--chdir', '-P']);
      return inDirectory(command(args, skipAssignments(args, i)), args, i, 'C');
    },
  },
  nice: simple(['-n', '--adjustment']),
  nohup: simple([]),
  time: simple(['-f', '-o', '--format', '--output']),
  timeout: afterOperand(['-s', '-k', '--signal', '--kill-after']),
  stdbuf: simple(['-i', '-o', '-e', '--input', '--output', '--error']),
  ionice: simple(['-c', '-n', '-p', '-P', '-u', '--class', '--classdata', '--pid', '--pgid', '--uid']),
  chrt: {
    transparent: true,
    unwrap(args) {
      const i = skipOptions(args, 0, []);
      return command(args, i >= 0 && /^\d+$/.test(args[i]?.text ?? '') ? i + 1 : i);
    },
  },
  taskset: afterOperand([]),
  setsid: simple([]),
  unbuffer: simple([]),
  coproc: simple([]),
  builtin: simple([]),
  busybox: simple([]),
  exec: simple(['-a']),
  command: {
    transparent: true,
    unwrap: (args) => (hasFlag(args, ['v', 'V']) ? [] : command(args, skipOptions(args, 0, []))),
  },
  chroot: afterOperand(['--userspec', '--groups'], false, 'chroot without a command starts a shell'),
  flock: {
    transparent: true,
    unwrap(args) {
      const inline = optionValue(args, 'c', ['--command']);
      if (inline) return script(inline, 'the command given to flock -c');
      const i = skipOptions(args, 0, ['-w', '--timeout', '-E', '--conflict-exit-code']);
      return command(args, i < 0 ? i : i + 1);
    },
  },
  xargs: {
    transparent: true,
    unwrap(args) {
      const i = skipOptions(args, 0, ['-a', '--arg-file', '-d', '--delimiter', '-E', '--eof', '-I', '--replace', '-L', '--max-lines', '-n', '--max-args', '-P', '--max-procs', '-s', '--max-chars', '--process-slot-var']);
      if (i < 0) return command(args, i);
      // `-I {}`: every word holding the replacement string is filled in from the input.
      const replace = optionValue(args, 'I', ['--replace'])?.text ?? (hasFlag(args, ['i']) ? '{}' : undefined);
      const fromInput = (a: Arg) => (replace !== undefined && a.text?.includes(replace) ? dynamicArg(a.raw) : a);
      // The rest of the command line comes from the input.
      const argv = args.length > i ? [...args.slice(i).map(fromInput), dynamicArg('<input>', true)] : [{ raw: 'echo', text: 'echo' }, dynamicArg('<input>', true)];
      return [{ kind: 'command', argv }];
    },
  },
  watch: {
    transparent: true,
    unwrap(args) {
      const i = skipOptions(args, 0, ['-n', '--interval', '-q', '--equexit']);
      if (i < 0) return command(args, i);
      if (hasFlag(args, ['x'], ['--exec'])) return command(args, i);
      const rest = args.slice(i);
      if (rest.length === 0) return [];
      if (rest.some((a) => a.text === undefined)) return [{ kind: 'opaque', reason: 'the command given to watch is only known when it runs' }];
      return [{ kind: 'script', text: rest.map((a) => a.text).join(' ') }];
    },
  },
  su: {
    transparent: false,
    unwrap(args) {
      const inline = optionValue(args, 'c', ['--command', '--session-command']);
      return inline ? script(inline, 'the command given to su -c') : [{ kind: 'opaque', reason: 'su without -c starts a shell' }];
    },
  },
  script: {
    transparent: true,
    unwrap(args) {
      const inline = optionValue(args, 'c', ['--command']);
      return inline ? script(inline, 'the command given to script -c') : [{ kind: 'opaque', reason: 'script without -c starts a shell' }];
    },
  },
  ssh: {
    transparent: false,
    unwrap(args) {
      const i = skipOptions(args, 0, ['-B', '-b', '-c', '-D', '-E', '-e', '-F', '-I', '-i', '-J', '-L', '-l', '-m', '-O', '-o', '-p', '-Q', '-R', '-S', '-W', '-w']);
      if (i < 0) return command(args, i);
      const rest = args.slice(i + 1);
      if (rest.length === 0) return [{ kind: 'opaque', reason: 'ssh without a command opens a remote shell' }];
      if (rest.some((a) => a.text === undefined)) return [{ kind: 'opaque', reason: 'the remote command is only known when it runs' }];
      return [{ kind: 'script', text: rest.map((a) => a.text).join(' ') }];
    },
  },
  find: {
    transparent: false,
    unwrap(args) {
      const out: Inner[] = [];
      for (let i = 0; i < args.length; i++) {
        const t = args[i]!.text;
        if (t !== '-exec' && t !== '-execdir' && t !== '-ok' && t !== '-okdir') continue;
        const perFile = t === '-execdir' || t === '-okdir';
        const argv: Arg[] = [];
        for (i++; i < args.length && args[i]!.text !== ';' && args[i]!.text !== '+'; i++) {
          const a = args[i]!;
          argv.push(a.text?.includes('{}') ? dynamicArg(a.raw) : a);
        }
        out.push({ kind: 'command', argv, ...(perFile ? { chdir: 'unknown' as const } : {}) });
      }
      return out;
    },
  },
  eval: {
    transparent: true,
    unwrap(args) {
      if (args.length === 0) return [];
      if (args.some((a) => a.text === undefined)) return [{ kind: 'opaque', reason: 'the code given to eval is only known when it runs' }];
      return [{ kind: 'script', text: args.map((a) => a.text).join(' ') }];
    },
  },
  source: { transparent: false, unwrap: (args) => [{ kind: 'opaque', reason: `it runs the script file ${args[0]?.raw ?? ''}, which the guardrail cannot read` }] },
  '.': { transparent: false, unwrap: (args) => [{ kind: 'opaque', reason: `it runs the script file ${args[0]?.raw ?? ''}, which the guardrail cannot read` }] },
  trap: {
    transparent: true,
    unwrap(args) {
      const first = args[0];
      if (!first || first.text === '-' || first.text === '' || first.text?.startsWith('-')) return [];
      return script(first, 'the code given to trap');
    },
  },
  alias: {
    transparent: true,
    unwrap(args) {
      return args.flatMap((a): Inner[] => {
        if (a.text === undefined) return [{ kind: 'opaque', reason: 'an alias is only known when it runs' }];
        const eq = a.text.indexOf('=');
        return eq > 0 ? [{ kind: 'script', text: a.text.slice(eq + 1) }] : [];
      });
    },
  },
};

for (const name of ['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash', 'posh', 'rbash', 'fish', 'csh', 'tcsh']) WRAPPERS[name] = shell;
WRAPPERS.runuser = WRAPPERS.su!;
