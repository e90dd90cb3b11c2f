/**
 * Variables that change what a command runs rather than what it works on: the dynamic loader's,
 * the shell's own, and those through which interpreters and git load code or configuration.
 * Setting one (`LD_PRELOAD=x.so ls`, `PATH=.:$PATH ls`, `export BASH_ENV=…`) can turn an allowed
 * command into any code, so the command guardrail refuses it as something it cannot check.
 */
const EXACT = new Set([
  'PATH',
  'ENV',
  'BASH_ENV',
  'IFS',
  'PS4',
  'PS1',
  'PS2',
  'PROMPT_COMMAND',
  'SHELLOPTS',
  'BASHOPTS',
  'CDPATH',
  'GLOBIGNORE',
  'HOME',
  'SHELL',
  'FPATH',
  'INPUTRC',
  'HISTFILE',
  'EDITOR',
  'VISUAL',
  'PAGER',
  'MANPAGER',
  'BROWSER',
  'LESSOPEN',
  'LESSCLOSE',
  'LESS',
  // zsh ties these arrays to PATH, FPATH and CDPATH.
  'path',
  'fpath',
  'cdpath',
  'GCONV_PATH',
  'LOCPATH',
  'NLSPATH',
  'HOSTALIASES',
  'CLASSPATH',
  'RUSTC_WRAPPER',
  'CC',
  'CXX',
  'MAKEFLAGS',
  'MAKEFILES',
  'SSH_ASKPASS',
  'SUDO_ASKPASS',
  'XDG_CONFIG_HOME',
  'ZDOTDIR',
  'NODE_OPTIONS',
  'NODE_PATH',
  'NODE_REPL_EXTERNAL_MODULE',
]);

/** Families, by prefix: `LD_*`, `GIT_*`, `PYTHON*`, `PERL5*`, `RUBY*`… (`NODE_ENV` is not one: only the three above are). */
const PREFIXES = ['LD_', 'DYLD_', 'GIT_', 'PYTHON', 'PERL', 'RUBY', 'NPM_CONFIG_', 'BASH_', 'LUA_', 'JAVA_', '_JAVA_', 'JDK_JAVA_', 'MALLOC_', 'GEM_', 'BUNDLE_', 'CARGO_', 'PIP_', 'UV_', 'DENO_', 'BUN_'];

/** Whether setting `name` (`NAME` or `NAME[i]`) can change which code a command runs. */
export function isRiskyVariable(name: string): boolean {
  const bare = name.replace(/\[.*$/, '');
  // npm reads its settings from the environment whatever their case.
  return EXACT.has(bare) || PREFIXES.some((prefix) => bare.startsWith(prefix)) || bare.toLowerCase().startsWith('npm_config_');
}
