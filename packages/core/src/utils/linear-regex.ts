import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { nodeBuiltin } from '../runtime/node-builtins.js';

/*
 * Regular expressions from untrusted places (an MCP server's schema `pattern`, the `grep` tool's
 * pattern from a model) run on RE2 (`re2-wasm`): matching time is linear in the text, whatever the
 * pattern, so `^(a+)+$` cannot stall the process. A pattern RE2 cannot run (backreferences,
 * lookaround) is refused with LOUSHO_REGEX_UNSUPPORTED, never handed to a backtracking engine.
 */

/** What a compiled untrusted pattern offers: a yes/no match, linear in the text's length. */
export interface LinearRegExp {
  /** The pattern as given. */
  readonly source: string;
  /** True when the pattern matches somewhere in `text`; time linear in `text`'s length. */
  test(text: string): boolean;
  /** Frees the engine's memory for this pattern; `test` must not be called after. */
  dispose(): void;
  /** `/source/flags`, as a RegExp writes itself. */
  toString(): string;
}

/** Options of `compileLinearRegExp()`. */
export interface LinearRegExpOptions {
  /** Match letters whatever their case (the `i` flag); default false. */
  ignoreCase?: boolean;
  /** Who asks, for the messages ("The grep pattern", "MCP server 'x': the pattern of tool 'y'"). */
  who?: string;
}

interface Re2Instance {
  test(text: string): boolean;
  readonly source: string;
  // The WASM-side object (embind): freed when the pattern leaves the cache.
  wrapper?: { delete?: () => void };
}
type Re2Constructor = new (pattern: string, flags: string) => Re2Instance;

let engine: Re2Constructor | undefined;

/**
 * RE2, loaded on first use with Node's `require` (looked up at run time, so a browser bundle of the
 * root entry holds no load of it). Elsewhere untrusted patterns are refused: LOUSHO_UNSUPPORTED_RUNTIME.
 */
function re2(who: string): Re2Constructor {
  if (engine) return engine;
  const { createRequire } = nodeBuiltin<{ createRequire(from: string): (id: string) => unknown }>('node:module', `${who} (a linear-time regular expression engine, RE2)`);
  engine = (createRequire(import.meta.url)('re2-wasm') as { RE2: Re2Constructor }).RE2;
  return engine;
}

/**
 * Compiles an untrusted regular expression (JavaScript syntax, Unicode mode) for linear-time
 * matching. Throws `SDKError` with LOUSHO_INVALID_INPUT when it is not a regular expression at all,
 * LOUSHO_REGEX_UNSUPPORTED when it needs backtracking (backreferences, lookahead, lookbehind).
 * A caller that is done with it calls `dispose()` (the engine's memory is not garbage collected).
 */
export function compileLinearRegExp(pattern: string, options: LinearRegExpOptions = {}): LinearRegExp {
  const who = options.who ?? 'The pattern';
  const flags = options.ignoreCase ? 'iu' : 'u';
  // JavaScript's parser says whether it is a pattern at all (parsing is linear; nothing runs).
  const jsError = syntaxError(pattern, flags) && syntaxError(pattern, options.ignoreCase ? 'i' : '');
  if (jsError) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_INPUT, `${who} ${quote(pattern)} is not a valid regular expression: ${jsError}`, { hint: 'Escape special characters such as ( [ { . * + ? with a backslash.' });
  const RE2 = re2(who);
  let compiled: Re2Instance;
  try {
    compiled = new RE2(pattern, flags);
  } catch (error) {
    throw new SDKError(ERROR_CODES.LOUSHO_REGEX_UNSUPPORTED, `${who} ${quote(pattern)} needs a feature the linear-time engine (RE2) does not have: ${reasonOf(error)}.`, {
      hint: 'Backreferences (\\1), lookahead (?=...) and lookbehind (?<=...) are not supported; rewrite the pattern without them.',
      cause: error,
    });
  }
  let disposed = false;
  return {
    source: pattern,
    // Validators (ajv) key their pattern caches on this.
    toString: () => `/${pattern}/${flags}`,
    test: (text) => {
      if (disposed) throw new SDKError(ERROR_CODES.LOUSHO_INTERNAL, `${who} was used after dispose().`);
      return compiled.test(text);
    },
    dispose: () => {
      if (disposed) return;
      disposed = true;
      compiled.wrapper?.delete?.();
    },
  };
}

function syntaxError(pattern: string, flags: string): string | undefined {
  try {
    new RegExp(pattern, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // "Invalid regular expression: /(a)\1/u: invalid escape sequence: \1" → "invalid escape sequence: \1"
  return message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
}

function quote(pattern: string): string {
  return JSON.stringify(pattern.length > 120 ? `${pattern.slice(0, 119)}…` : pattern);
}
