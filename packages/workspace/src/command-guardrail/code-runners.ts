import { readSedScript } from './sed-script.js';
import type { Arg } from './words.js';

/**
 * Commands that run code the guardrail cannot read: interpreters given code or a script, awk and
 * sed programs that run commands or write files, tar's and git's command hooks, editors and pagers.
 * Each finding says why, and how many leading arguments an allow rule must name to vouch for the
 * command (`allow: ['python3 -m pytest']` vouches for `python3 -m pytest -x`; `allow: ['python3']`
 * never for `python3 -c …`).
 */
export interface CodeFinding {
  reason: string;
  /** Arguments an allow rule must name (its tokens) to vouch for this; Infinity: never a string rule. */
  pin: number;
}

const NEVER = Number.POSITIVE_INFINITY;

/** What a finding for `program args` is, or undefined when the command runs no hidden code. */
export function findHiddenCode(program: string, args: Arg[]): CodeFinding | undefined {
  const family = familyOf(program);
  return family ? FAMILIES[family](args, program) : undefined;
}

type Family = 'python' | 'node' | 'script' | 'awk' | 'sed' | 'tar' | 'git' | 'editor' | 'remote' | 'always';

function familyOf(program: string): Family | undefined {
  if (/^(?:python|pypy)(?:\d+(?:\.\d+)*)?$/.test(program)) return 'python';
  if (/^(?:node|nodejs)$/.test(program)) return 'node';
  if (/^(?:perl|ruby|php|lua|luajit|rscript|tclsh|wish|osascript|pwsh|powershell|expect|jshell|irb|ghci|scala|groovy|julia|elixir|erl|escript|guile|racket|sbcl|clisp|gdb|lldb)\d*(?:\.\d+)*$/.test(program)) return 'script';
  if (/^(?:awk|gawk|mawk|nawk)$/.test(program)) return 'awk';
  if (program === 'sed' || program === 'gsed') return 'sed';
  if (program === 'tar' || program === 'gtar' || program === 'bsdtar') return 'tar';
  if (program === 'git') return 'git';
  if (EDITORS_AND_PAGERS.has(program)) return 'editor';
  if (REMOTE.has(program)) return 'remote';
  if (ALWAYS.has(program)) return 'always';
  return undefined;
}

const EDITORS_AND_PAGERS = new Set(['vi', 'vim', 'nvim', 'view', 'vimdiff', 'rvim', 'gvim', 'ex', 'ed', 'red', 'emacs', 'emacsclient', 'nano', 'pico', 'joe', 'jed', 'mg', 'micro', 'kak', 'hx', 'helix', 'ne', 'less', 'more', 'most', 'pg', 'man', 'info', 'w3m', 'lynx']);
const REMOTE = new Set(['ssh', 'scp', 'sftp', 'rsync', 'zip', 'socat', 'nc', 'ncat', 'netcat']);
/** Always run code from somewhere the guardrail cannot see (input, files, the network). */
const ALWAYS = new Set(['deno', 'bun', 'tsx', 'ts-node', 'parallel', 'at', 'batch', 'crontab', 'hash', 'enable', 'bpftrace']);

const FAMILIES: Record<Family, (args: Arg[], program: string) => CodeFinding | undefined> = {
  python: (args, program) => interpreter(args, program, { code: ['-c'], module: ['-m'], withValue: ['-W', '-X', '--check-hash-based-pycs'], info: ['-V', '--version', '-h', '--help'] }),
  node: (args, program) =>
    interpreter(args, program, {
      code: ['-e', '--eval', '-p', '--print'],
      module: ['-r', '--require', '--import', '--loader', '--experimental-loader'],
      withValue: ['--env-file', '--title', '--inspect-port'],
      info: ['-v', '--version', '-h', '--help'],
    }),
  script: (args, program) =>
    interpreter(args, program, { code: ['-e', '-E', '-r', '-c', '-ex', '--eval', '-Command', '-command'], module: ['-M', '-m', '-l', '-File', '-file'], withValue: ['-I', '-x'], info: ['-v', '-V', '--version', '-h', '--help'] }),
  awk: awk,
  sed: sed,
  tar: tar,
  git: git,
  editor: (_args, program) => ({ reason: `${program} can run commands of its own (an editor or a pager), which the guardrail cannot see`, pin: NEVER }),
  remote: remote,
  always: (_args, program) => ({ reason: `${program} runs code the guardrail cannot read (from its input, a file or the network)`, pin: NEVER }),
};

interface InterpreterShape {
  code: string[];
  module: string[];
  withValue: string[];
  info: string[];
}

/** `python3 -c CODE`, `node -e CODE`, `perl script.pl`, `ruby` (code from input): where the code comes from. */
function interpreter(args: Arg[], program: string, shape: InterpreterShape): CodeFinding | undefined {
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === undefined) return { reason: `an argument of ${program} is only known when it runs, so the code it runs cannot be known`, pin: NEVER };
    if (shape.info.includes(t)) return undefined;
    const flag = t.startsWith('--') ? t.split('=')[0]! : t;
    const attached = t.startsWith('--') ? t.includes('=') : false;
    const code = shape.code.find((f) => flag === f || (!t.startsWith('--') && f.length === 2 && t.startsWith(f) && t.length > 2));
    if (code) return { reason: `${program} ${code} runs code given on its command line, which the guardrail cannot check`, pin: flag === code && !attached ? i + 2 : i + 1 };
    const module = shape.module.find((f) => flag === f || (!t.startsWith('--') && f.length === 2 && t.startsWith(f) && t.length > 2));
    if (module) return { reason: `${program} ${module} loads code (${args[i + 1]?.raw ?? t}) the guardrail cannot read`, pin: flag === module && !attached ? i + 2 : i + 1 };
    if (t === '-') return { reason: `${program} runs code from its input, which the guardrail cannot see`, pin: NEVER };
    if (t === '--' || !t.startsWith('-')) {
      const file = t === '--' ? args[i + 1] : args[i];
      if (!file) break;
      return { reason: `${program} runs the script ${file.raw}, which the guardrail cannot read`, pin: t === '--' ? i + 2 : i + 1 };
    }
    if (shape.withValue.includes(flag) && !attached) i++;
  }
  return { reason: `${program} runs code from its input, which the guardrail cannot see`, pin: NEVER };
}

/** awk programs run commands with `system()`, `|` pipes and `|&`, and write files with `print > file`. */
function awk(args: Arg[], program: string): CodeFinding | undefined {
  let programAt = -1;
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === undefined) return { reason: `an argument of ${program} is only known when it runs`, pin: NEVER };
    if (t === '--version' || t === '-V') return undefined;
    if (/^(?:-f|--file|-E|--exec|-i|--include|-l|--load)(?:=|$)/.test(t) || /^-[fEil]./.test(t)) {
      return { reason: `${program} ${t} runs a program from a file, which the guardrail cannot read`, pin: NEVER };
    }
    if (/^(?:-e|--source)$/.test(t)) {
      programAt = i + 1;
      break;
    }
    if (/^(?:-F|-v|--field-separator|--assign)$/.test(t)) {
      i++;
      continue;
    }
    if (t === '--') {
      programAt = i + 1;
      break;
    }
    if (!t.startsWith('-') || t === '-') {
      programAt = i;
      break;
    }
  }
  const text = args[programAt]?.text;
  if (programAt < 0 || text === undefined) return { reason: `the program given to ${program} cannot be found on its command line`, pin: NEVER };
  if (/\bsystem\s*\(|\||@load|@include|\b(?:print|printf)\b[^;{}]*>/.test(text)) {
    return { reason: `the ${program} program runs commands or writes files (system(), a pipe, or print >), which the guardrail cannot check`, pin: programAt + 1 };
  }
  return undefined;
}

/** sed's `e` command and `s///e` run commands; `w`, `W` and `s///w` write files. */
function sed(args: Arg[], program: string): CodeFinding | undefined {
  const scripts: { text: string | undefined; at: number }[] = [];
  let firstOperand = -1;
  for (let i = 0; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === undefined) return { reason: `an argument of ${program} is only known when it runs`, pin: NEVER };
    if (t === '--version' || t === '--help') return undefined;
    if (t === '--') {
      if (firstOperand < 0) firstOperand = i + 1;
      break;
    }
    if (t === '-f' || t.startsWith('--file') || /^-[a-zA-Z]*f/.test(t)) return { reason: `${program} -f runs a script from a file, which the guardrail cannot read`, pin: NEVER };
    if (t === '-e' || t === '--expression') {
      scripts.push({ text: args[i + 1]?.text, at: i + 1 });
      i++;
    } else if (t.startsWith('--expression=')) scripts.push({ text: t.slice('--expression='.length), at: i });
    else if (/^-[a-zA-Z]*e./.test(t) && !t.startsWith('--')) scripts.push({ text: t.slice(t.indexOf('e') + 1), at: i });
    else if (t === '-l' || t === '--line-length') i++;
    else if (!t.startsWith('-') || t === '-') {
      if (firstOperand < 0) firstOperand = i;
    }
  }
  if (scripts.length === 0 && firstOperand >= 0) scripts.push({ text: args[firstOperand]?.text, at: firstOperand });
  for (const s of scripts) {
    if (s.text === undefined) return { reason: `the ${program} script is only known when it runs`, pin: NEVER };
    const verdict = readSedScript(s.text);
    if (verdict !== 'safe') {
      const pin = Math.max(...scripts.map((x) => x.at)) + 1;
      return { reason: verdict === 'runs' ? `the ${program} script runs commands (the e command or flag), which the guardrail cannot check` : verdict === 'writes' ? `the ${program} script writes files (w, W), which the guardrail cannot check` : `the ${program} script cannot be read with certainty`, pin };
    }
  }
  return undefined;
}

const TAR_HOOKS = ['--checkpoint-action', '--to-command', '--use-compress-program', '--rsh-command', '--info-script', '--new-volume-script', '--index-file'];
/** Short options of tar that take a value (the rest of a cluster is that value). */
const TAR_VALUES = 'fCTXbgHKLNVIF';

/** tar runs commands through `--checkpoint-action=exec=…`, `--to-command`, `-I`, `-F` and friends. */
function tar(args: Arg[]): CodeFinding | undefined {
  const hook = (what: string): CodeFinding => ({ reason: `tar ${what} runs a command of its own, which the guardrail cannot check`, pin: args.length });
  for (const [i, a] of args.entries()) {
    const t = a.text;
    if (t === undefined) return { reason: 'an argument of tar is only known when it runs, and tar can run commands', pin: NEVER };
    if (t.startsWith('--')) {
      const name = t.split('=')[0]!;
      // getopt_long accepts any unambiguous prefix: `--checkpoint-a` is `--checkpoint-action`.
      if (name.length > 3 && TAR_HOOKS.some((h) => h.startsWith(name) && (name.length >= 6 || h === name))) return hook(name);
      continue;
    }
    const letters = t.startsWith('-') ? t.slice(1) : i === 0 ? t : '';
    for (const c of letters) {
      if (c === 'I' || c === 'F') return hook(`-${c}`);
      if (TAR_VALUES.includes(c)) break;
    }
  }
  return undefined;
}

/** Keys of git's configuration whose value is a command git runs. */
const GIT_COMMAND_KEY = /^(?:alias\..+|core\.(?:pager|editor|sshcommand|fsmonitor|hookspath|askpass|gitproxy|attributesfile|excludesfile)|sequence\.editor|diff\.external|gpg\..*program|.*\.(?:command|textconv|driver|helper|program|process|clean|smudge|cmd|tool|path)|uploadpack\..*|receivepack\..*|include\..*|includeif\..*|credential\..*|http\..*\.cookiefile|protocol\..*|url\..*)$/i;

/** git runs commands from `-c`, its configuration, hooks (`--exec`, `--upload-pack`, `bisect run`…). */
function git(args: Arg[]): CodeFinding | undefined {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t === undefined) return { reason: 'an argument of git is only known when it runs, and git can run commands', pin: NEVER };
    if (!t.startsWith('-')) break;
    if (t === '-c' || t === '--config-env' || t.startsWith('--config-env=')) return { reason: `git ${t.split('=')[0]} sets configuration that can run commands (core.pager, core.fsmonitor, aliases…), which the guardrail cannot check`, pin: NEVER };
    if (t.startsWith('--exec-path=') || t === '--git-dir' || t.startsWith('--git-dir=') || t === '--work-tree' || t.startsWith('--work-tree=')) {
      return { reason: `git ${t.split('=')[0]} points git at another repository or program directory, whose configuration and hooks the guardrail cannot read`, pin: NEVER };
    }
    if (t === '-C' || t === '--namespace' || t === '--super-prefix') i++;
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1).map((a) => a.text);
  const pin = args.length;
  const runs = (what: string): CodeFinding => ({ reason: `git ${sub} ${what} runs a command of its own, which the guardrail cannot check`, pin });
  switch (sub) {
    case 'config': {
      if (rest.some((t) => t === undefined)) return { reason: 'git config with a value only known when it runs', pin: NEVER };
      const key = rest.find((t) => !t!.startsWith('-'));
      const reads = rest.some((t) => /^--(?:get|get-all|get-regexp|list|show-origin|unset|unset-all|remove-section)/.test(t!) || t === '-l');
      if (key && !reads && GIT_COMMAND_KEY.test(key)) return { reason: `git config ${key} sets a command git will run later, which the guardrail cannot check`, pin };
      return undefined;
    }
    case 'bisect':
      return rest[0] === 'run' ? runs('run') : undefined;
    case 'submodule':
      return rest.includes('foreach') ? runs('foreach') : undefined;
    case 'filter-branch':
    case 'filter-repo':
    case 'send-email':
    case 'difftool':
    case 'mergetool':
    case 'instaweb':
    case 'web--browse':
    case 'help':
      return runs('');
    default:
      break;
  }
  const hooked = rest.find((t) => t !== undefined && /^(?:-x|--exec|--upload-pack|--receive-pack|-u|--open-files-in-pager|-O|--extcmd|--config|--template)(?:=|$)|^-O./.test(t));
  return hooked === undefined ? undefined : runs(hooked.split('=')[0]!);
}

/** ssh, rsync, zip, socat, netcat: options that run a local command. */
function remote(args: Arg[], program: string): CodeFinding | undefined {
  for (const [i, a] of args.entries()) {
    const t = a.text;
    if (t === undefined) continue;
    const next = args[i + 1]?.text ?? '';
    const option = t === '-o' ? next : t.startsWith('-o') ? t.slice(2) : '';
    const ssh = program === 'ssh' || program === 'scp' || program === 'sftp';
    if (ssh && (/^(?:proxycommand|localcommand|permitlocalcommand|knownhostscommand|match)\b/i.test(option) || /^-[^-]*[FS]/.test(t))) {
      return { reason: `${program} ${t} runs a local command or reads a configuration, which the guardrail cannot check`, pin: NEVER };
    }
    if ((program === 'rsync' && /^(?:-e|--rsh|--rsync-path)(?:=|$)|^-[a-zA-Z]*e/.test(t)) || (program === 'zip' && /^(?:-TT|--unzip-command)/.test(t))) {
      return { reason: `${program} ${t} runs a command of its own, which the guardrail cannot check`, pin: NEVER };
    }
    if ((program === 'nc' || program === 'ncat' || program === 'netcat') && /^(?:-e|-c|--exec|--sh-exec|--lua-exec)(?:=|$)/.test(t)) return { reason: `${program} ${t} runs a command for the connection`, pin: NEVER };
    if (program === 'socat' && /(?:^|[,:])(?:exec|system)[:=]/i.test(t)) return { reason: 'socat EXEC/SYSTEM runs a command for the connection', pin: NEVER };
  }
  return undefined;
}
