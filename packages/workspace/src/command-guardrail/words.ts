import type { ShellWord, WordPart } from './shell-ast.js';

/**
 * A word as the shell will pass it, as far as it can be known before the command runs:
 * its text after quote removal, or `dynamic` when an expansion decides it.
 */
export interface Arg {
  /** As written. */
  raw: string;
  /** After quote removal (and brace expansion); undefined when the word is computed at run time. */
  text?: string;
  /** Only for a word computed at run time: it may become several words, or none (an unquoted `$x`, `"$@"`). */
  split?: boolean;
  /** Only for a word computed at run time: the last path segment it certainly ends with (`"$DIR/build"` → `build`). */
  lastSegment?: string;
  /** Only for a relative path after a `cd` to a computed directory: what is known of where it points (`''`: any directory). */
  relativeTail?: string;
  /** With unquoted `*`, `?` or `[`: the shell may replace it with matching file names; `pattern` is the glob. */
  glob?: { pattern: RegExp; dir: string };
}

/** Most words one brace expression may turn into before the guardrail stops guessing. */
const MAX_BRACE_WORDS = 256;

/** The args a word becomes: usually one, several after brace expansion (`{a,b}`). */
export function wordArgs(word: ShellWord): Arg[] {
  const chars = staticChars(word);
  if (!chars) return [dynamicArg(word)];
  const expanded = expandBraces(chars);
  if (!expanded) return [{ raw: word.raw }];
  return expanded.map((c) => toArg(word.raw, c));
}

interface Char {
  c: string;
  /** Quoted or escaped: never special. */
  q: boolean;
}

/** The word's characters with their quoting, or undefined when an expansion is part of it. `$HOME` / `${HOME}` read as `~`. */
function staticChars(word: ShellWord): Char[] | undefined {
  const out: Char[] = [];
  for (const [i, part] of word.parts.entries()) {
    if (part.type === 'literal') {
      for (const c of part.text) out.push({ c, q: part.quoted });
    } else if (i === 0 && isHome(part)) {
      out.push({ c: '~', q: false });
    } else {
      return undefined;
    }
  }
  return out;
}

function dynamicArg(word: ShellWord): Arg {
  const arg: Arg = { raw: word.raw };
  if (word.parts.some(splits)) arg.split = true;
  const last = word.parts[word.parts.length - 1];
  if (last?.type === 'literal') {
    const slash = last.text.lastIndexOf('/');
    const segment = last.text.slice(slash + 1);
    if (slash >= 0 && segment && segment !== '.' && segment !== '..' && !(last.quoted ? false : /[*?[]/.test(segment))) arg.lastSegment = segment;
  }
  return arg;
}

/** An expansion whose result the shell splits into words (unquoted), or that is a list (`$@`, `${a[@]}`). */
function splits(part: WordPart): boolean {
  if (part.type === 'parameter') return !part.quoted || part.name === '@' || part.name.endsWith('[@]') || /\[@\]/.test(part.name);
  return part.type === 'command-substitution' && !part.quoted;
}

function isHome(part: WordPart): boolean {
  return part.type === 'parameter' && part.name === 'HOME' && part.nested.length === 0;
}

function toArg(raw: string, chars: Char[]): Arg {
  const text = chars.map((ch) => ch.c).join('');
  const globAt = chars.findIndex((ch) => !ch.q && (ch.c === '*' || ch.c === '?' || ch.c === '['));
  if (globAt < 0) return { raw, text };
  const before = text.slice(0, globAt);
  const slash = before.lastIndexOf('/');
  const dir = slash < 0 ? '.' : slash === 0 ? '/' : before.slice(0, slash);
  return { raw, text, glob: { pattern: globPattern(chars), dir } };
}

/** A shell glob as a RegExp over a whole path (`*` and `?` never cross a `/`). */
function globPattern(chars: Char[]): RegExp {
  let source = '';
  for (let i = 0; i < chars.length; i++) {
    const { c, q } = chars[i]!;
    if (!q && c === '*') source += '[^/]*';
    else if (!q && c === '?') source += '[^/]';
    else if (!q && c === '[') {
      const close = chars.findIndex((ch, j) => j > i + 1 && ch.c === ']');
      if (close < 0) source += '\\[';
      else {
        const body = chars
          .slice(i + 1, close)
          .map((ch) => ch.c)
          .join('')
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\');
        source += `[${body}]`;
        i = close;
      }
    } else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  try {
    return new RegExp(`^${source}$`);
  } catch {
    return /^[\s\S]*$/;
  }
}

/** Brace expansion (`{a,b}`, `{1..3}`, `{a..c}`), or undefined when it would make too many words to follow. */
function expandBraces(chars: Char[]): Char[][] | undefined {
  const open = findBraceGroup(chars);
  if (!open) return [chars];
  const { start, end, alternatives } = open;
  if (alternatives === 'too-many') return undefined;
  const out: Char[][] = [];
  for (const alt of alternatives) {
    const next = expandBraces([...chars.slice(0, start), ...alt, ...chars.slice(end + 1)]);
    if (!next) return undefined;
    out.push(...next);
    if (out.length > MAX_BRACE_WORDS) return undefined;
  }
  return out;
}

function findBraceGroup(chars: Char[]): { start: number; end: number; alternatives: Char[][] | 'too-many' } | undefined {
  for (let start = 0; start < chars.length; start++) {
    const ch = chars[start]!;
    if (ch.q || ch.c !== '{') continue;
    let depth = 0;
    const commas: number[] = [];
    for (let j = start + 1; j < chars.length; j++) {
      const cj = chars[j]!;
      if (cj.q) continue;
      if (cj.c === '{') depth++;
      else if (cj.c === '}') {
        if (depth > 0) {
          depth--;
          continue;
        }
        const inner = chars.slice(start + 1, j);
        if (commas.length > 0) {
          const alternatives: Char[][] = [];
          let from = start + 1;
          for (const comma of [...commas, j]) {
            alternatives.push(chars.slice(from, comma));
            from = comma + 1;
          }
          return { start, end: j, alternatives };
        }
        const sequence = braceSequence(inner.map((x) => x.c).join(''));
        if (sequence === 'too-many') return { start, end: j, alternatives: sequence };
        if (sequence) return { start, end: j, alternatives: sequence.map((s) => [...s].map((c) => ({ c, q: true }))) };
        break;
      } else if (cj.c === ',' && depth === 0) commas.push(j);
    }
  }
  return undefined;
}

function braceSequence(inner: string): string[] | 'too-many' | undefined {
  const numeric = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const m = numeric ?? letters;
  if (!m) return undefined;
  const from = numeric ? Number(m[1]) : m[1]!.charCodeAt(0);
  const to = numeric ? Number(m[2]) : m[2]!.charCodeAt(0);
  const step = Math.abs(Number(m[3] ?? 1)) || 1;
  if (Math.abs(to - from) / step > MAX_BRACE_WORDS) return 'too-many';
  const out: string[] = [];
  for (let v = from; from <= to ? v <= to : v >= to; v += from <= to ? step : -step) out.push(numeric ? String(v) : String.fromCharCode(v));
  return out;
}

/** `a/./b//c/../d/` → `a/b/d`; keeps a leading `/` or `~`; `..` above the root stays at the root. */
export function normalizePath(path: string): string {
  const absolute = path.startsWith('/');
  const segments: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.length > 0 && segments[segments.length - 1] !== '..' && segments[segments.length - 1] !== '~') segments.pop();
      else if (!absolute) segments.push('..');
      continue;
    }
    segments.push(segment);
  }
  const joined = segments.join('/');
  if (absolute) return `/${joined}`;
  return joined || '.';
}

/** Joins a path to a directory it is relative to (`~` and absolute paths stand alone). */
export function resolvePath(cwd: string | undefined, path: string): string {
  if (path.startsWith('/') || path === '~' || path.startsWith('~/') || cwd === undefined) return normalizePath(path);
  return normalizePath(`${cwd}/${path}`);
}
