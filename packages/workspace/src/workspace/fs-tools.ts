import picomatch from 'picomatch';
import { z } from 'zod';
import { ERROR_CODES, SDKError, type ErrorCode, defineTool, compileLinearRegExp, type LinearRegExp } from '@lousho/core';
import { notFound, unsuitable, WorkspaceError } from './errors.js';
import { confinePath, displayPath } from './paths.js';
import { decodeText, isBinary, trimPartialCharacter } from './text.js';
import type { FsProvider } from './types.js';
import { walkFiles } from './walk.js';

/** Options of `createFsTools()`. */
export interface FsToolsOptions {
  /** Only `read_file`, `list_dir`, `glob` and `grep` (no tool that writes). Default false. */
  readOnly?: boolean;
  /** Ask a person before `write_file` and `edit_file` run (`needsApproval`). Default false. */
  approveWrites?: boolean;
  /** Most bytes of a file `read_file` reads, and largest file `edit_file` edits (default 1 MiB). */
  maxFileBytes?: number;
  /** Lines `read_file` returns when no `limit` is given (default 2000). */
  defaultReadLines?: number;
  /** Longer lines are cut in `read_file` and `grep` results (default 2000 characters). */
  maxLineLength?: number;
  /** Most entries `list_dir` returns, and files `glob` returns (default 1000). */
  maxEntries?: number;
  /** Most matches `grep` returns (default 200; the call may ask for fewer). */
  maxGrepMatches?: number;
  /** Most characters of matched lines `grep` returns in all (default 50,000). */
  maxGrepOutputChars?: number;
  /** Most entries a `glob` or `grep` walk visits (default 20,000). */
  maxWalkEntries?: number;
  /** Directory names `glob` and `grep` never enter (default `['.git', 'node_modules']`). */
  skipDirs?: readonly string[];
}

const DEFAULTS = {
  maxFileBytes: 1024 * 1024,
  defaultReadLines: 2000,
  maxLineLength: 2000,
  maxEntries: 1000,
  maxGrepMatches: 200,
  maxGrepOutputChars: 50_000,
  maxWalkEntries: 20_000,
};

function positiveInt(options: FsToolsOptions, key: keyof typeof DEFAULTS): number {
  const value = options[key];
  if (value === undefined) return DEFAULTS[key];
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createFsTools(): ${key} must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function assertFsProvider(fs: unknown): asserts fs is FsProvider {
  const p = fs as Partial<FsProvider> | null;
  const missing = (['stat', 'readFile', 'writeFile', 'readDir'] as const).filter((m) => typeof p?.[m] !== 'function');
  if (missing.length > 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `createFsTools(fs) needs an FsProvider; the value given has no ${missing.join(', ')}.`, {
      hint: 'Pass a NodeWorkspace, a MemoryWorkspace, or your own { stat, readFile, writeFile, readDir }.',
    });
  }
}

const cut = (line: string, max: number) => (line.length > max ? `${line.slice(0, max)}… [line cut at ${max} characters]` : line);

/**
 * The file tools of a coding agent over `fs`: `read_file` (line ranges), `write_file`, `edit_file`
 * (exact replacement that fails clearly on zero or several matches), `list_dir`, `glob` and `grep`.
 * Every result is bounded: a huge file, a binary file or a search with many hits never floods the
 * context; the result says what was left out and how to see more.
 */
export function createFsTools(fs: FsProvider, options: FsToolsOptions & { readOnly: true }): ReadOnlyFsTools;
export function createFsTools(fs: FsProvider, options?: FsToolsOptions): FsTools;
export function createFsTools(fs: FsProvider, options: FsToolsOptions = {}): FsTools | ReadOnlyFsTools {
  assertFsProvider(fs);
  const t = buildFsTools(fs, options);
  return options.readOnly ? [t.readFile, t.listDir, t.glob, t.grep] : [t.readFile, t.writeFile, t.editFile, t.listDir, t.glob, t.grep];
}

type Built = ReturnType<typeof buildFsTools>;
/** What `createFsTools()` returns: `[read_file, write_file, edit_file, list_dir, glob, grep]`. */
export type FsTools = [Built['readFile'], Built['writeFile'], Built['editFile'], Built['listDir'], Built['glob'], Built['grep']];
/** What `createFsTools(fs, { readOnly: true })` returns: `[read_file, list_dir, glob, grep]`. */
export type ReadOnlyFsTools = [Built['readFile'], Built['listDir'], Built['glob'], Built['grep']];

function buildFsTools(fs: FsProvider, options: FsToolsOptions) {
  const maxFileBytes = positiveInt(options, 'maxFileBytes');
  const defaultReadLines = positiveInt(options, 'defaultReadLines');
  const maxLineLength = positiveInt(options, 'maxLineLength');
  const maxEntries = positiveInt(options, 'maxEntries');
  const maxGrepMatches = positiveInt(options, 'maxGrepMatches');
  const maxGrepOutputChars = positiveInt(options, 'maxGrepOutputChars');
  const maxWalkEntries = positiveInt(options, 'maxWalkEntries');
  const skipDirs = new Set(options.skipDirs ?? ['.git', 'node_modules']);
  // An absolute path inside the provider's root is the same file as its relative path.
  const root = typeof fs.root === 'string' && fs.root.startsWith('/') ? fs.root : undefined;
  const confine = (path: string) => confinePath(path, root);

  /** A text file's content, refusing directories, binary files and (for edits) files too large to hold. */
  const readText = async (path: string, purpose: 'read' | 'edit'): Promise<{ text: string; size: number; partial: boolean }> => {
    const stat = await fs.stat(path);
    if (!stat) throw notFound(displayPath(path), 'No file');
    if (stat.type === 'directory') throw unsuitable(path, `'${displayPath(path)}' is a directory.`, 'Use list_dir to see what it holds.');
    if (stat.type !== 'file') throw unsuitable(path, `'${displayPath(path)}' is not a regular file.`);
    if (purpose === 'edit' && stat.size > maxFileBytes) {
      throw unsuitable(path, `'${path}' is ${stat.size} bytes, more than the ${maxFileBytes} bytes edit_file works on.`, 'Edit it with the shell tool (e.g. sed) instead.');
    }
    const bytes = await fs.readFile(path, { maxBytes: maxFileBytes });
    if (isBinary(bytes)) {
      throw unsuitable(path, `'${path}' is a binary file (${stat.size} bytes); it cannot be shown or edited as text.`, 'Inspect it with the shell tool (e.g. file, xxd | head).');
    }
    const partial = stat.size > bytes.length;
    return { text: decodeText(partial ? bytes.subarray(0, trimPartialCharacter(bytes)) : bytes), size: stat.size, partial };
  };

  const readFile = defineTool({
    name: 'read_file',
    displayName: 'Read file',
    description:
      'Read a text file of the workspace. Returns numbered lines (`N\\tline`). Use offset/limit for a part of a long file; long files are returned in parts, and the result says how to get the next one.',
    input: z.object({
      path: z.string().min(1).describe('Path relative to the workspace root'),
      offset: z.number().int().min(1).optional().describe('First line to return (1-based, default 1)'),
      limit: z.number().int().min(1).optional().describe(`How many lines (default ${defaultReadLines})`),
    }),
    async execute({ path, offset = 1, limit = defaultReadLines }) {
      const rel = confine(path);
      const { text, size, partial } = await readText(rel, 'read');
      const lines = text.split('\n');
      if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
      // A file read in part: its last line may be cut, so it is not shown.
      if (partial && lines.length > 1) lines.pop();
      const total = lines.length;
      if (offset > total && !(offset === 1 && total === 0)) {
        if (partial) {
          throw unsuitable(rel, `'${rel}' is ${size} bytes; read_file reads its first ${maxFileBytes} bytes (${total} lines), and line ${offset} is past them.`, 'Use grep, or the shell tool (e.g. sed -n), to reach later lines.');
        }
        throw new WorkspaceError(ERROR_CODES.LOUSHO_INVALID_INPUT, `'${rel}' has ${total} lines; offset ${offset} is past its end.`, { path: rel });
      }
      const end = Math.min(total, offset - 1 + limit);
      const content = lines
        .slice(offset - 1, end)
        .map((line, i) => `${offset + i}\t${cut(line, maxLineLength)}`)
        .join('\n');
      const notes: string[] = [];
      if (end < total) notes.push(`Lines ${offset}-${end} of ${total}${partial ? '+' : ''}; read on with offset ${end + 1}.`);
      if (partial) notes.push(`The file is ${size} bytes; only its first ${maxFileBytes} bytes were read. Use grep or the shell tool for the rest.`);
      return { path: rel, content, startLine: total === 0 ? 0 : offset, endLine: end, totalLines: total, ...(notes.length ? { note: notes.join(' ') } : {}) };
    },
  });

  const writeFile = defineTool({
    name: 'write_file',
    displayName: 'Write file',
    description: 'Create a file, or replace a whole file, in the workspace (parent directories are created). Prefer edit_file to change part of an existing file.',
    input: z.object({
      path: z.string().min(1).describe('Path relative to the workspace root'),
      content: z.string().describe('The complete new content of the file'),
    }),
    needsApproval: options.approveWrites === true,
    async execute({ path, content }) {
      const rel = confine(path);
      if (rel === '') throw unsuitable(rel, 'The workspace root is a directory.');
      const before = await fs.stat(rel);
      if (before?.type === 'directory') throw unsuitable(rel, `'${rel}' is a directory.`);
      // A FIFO, a device or a socket is never written: a FIFO would block the call forever.
      if (before && before.type !== 'file') throw unsuitable(rel, `'${rel}' is not a regular file; write_file only creates or replaces regular files.`);
      await fs.writeFile(rel, content);
      return { path: rel, created: !before, bytes: new TextEncoder().encode(content).length, lines: content === '' ? 0 : content.split('\n').length - (content.endsWith('\n') ? 1 : 0) };
    },
  });

  const editFile = defineTool({
    name: 'edit_file',
    displayName: 'Edit file',
    description:
      'Replace an exact piece of text in a file. old_string must match the file exactly (whitespace included) and only once, unless replace_all is true; include a few surrounding lines to make it unique.',
    input: z.object({
      path: z.string().min(1).describe('Path relative to the workspace root'),
      old_string: z.string().min(1).describe('The exact text to replace'),
      new_string: z.string().describe('The text to put in its place'),
      replace_all: z.boolean().optional().describe('Replace every occurrence (default false)'),
    }),
    needsApproval: options.approveWrites === true,
    async execute({ path, old_string: oldString, new_string: newString, replace_all: replaceAll = false }) {
      const rel = confine(path);
      if (oldString === newString) throw noMatch(rel, 'old_string and new_string are the same; nothing would change.');
      const { text } = await readText(rel, 'edit');
      const positions = occurrences(text, oldString);
      if (positions.length === 0) {
        const near = whitespaceInsensitiveLine(text, oldString);
        throw noMatch(
          rel,
          `old_string was not found in '${rel}'.${near ? ` Text that differs only in whitespace starts at line ${near}.` : ''}`,
          'Read the file again (read_file) and copy the text exactly, with its indentation.',
        );
      }
      if (positions.length > 1 && !replaceAll) {
        const lines = positions.slice(0, 10).map((p) => lineAt(text, p));
        throw noMatch(
          rel,
          `old_string occurs ${positions.length} times in '${rel}' (lines ${lines.join(', ')}${positions.length > 10 ? ', …' : ''}).`,
          'Include more surrounding text so it matches once, or set replace_all: true.',
        );
      }
      const updated = replaceAll ? text.split(oldString).join(newString) : text.slice(0, positions[0]) + newString + text.slice(positions[0]! + oldString.length);
      await fs.writeFile(rel, updated);
      return { path: rel, replacements: replaceAll ? positions.length : 1, line: lineAt(text, positions[0]!) };
    },
  });

  const listDir = defineTool({
    name: 'list_dir',
    displayName: 'List directory',
    description: 'List the entries of a workspace directory (name, type, size).',
    input: z.object({ path: z.string().optional().describe('Directory relative to the workspace root (default: the root)') }),
    async execute({ path = '.' }) {
      const rel = confine(path);
      const stat = await fs.stat(rel);
      if (!stat) throw notFound(displayPath(rel), 'No directory');
      if (stat.type !== 'directory') throw unsuitable(rel, `'${displayPath(rel)}' is not a directory.`, 'Use read_file for a file.');
      const entries = await fs.readDir(rel);
      const shown = entries.slice(0, maxEntries).map((e) => (e.type === 'file' ? { name: e.name, type: e.type, size: e.size } : { name: e.name, type: e.type }));
      return { path: displayPath(rel), entries: shown, ...(entries.length > maxEntries ? { note: `Showing ${maxEntries} of ${entries.length} entries.` } : {}) };
    },
  });

  const glob = defineTool({
    name: 'glob',
    displayName: 'Find files',
    description: 'Find files by glob pattern (e.g. "src/**/*.ts", "**/*.{js,json}"), relative to the workspace root or to `path`.',
    input: z.object({
      pattern: z.string().min(1).describe('Glob pattern'),
      path: z.string().optional().describe('Directory to search from (default: the root)'),
    }),
    async execute({ pattern, path = '.' }, ctx) {
      const base = confine(path);
      const isMatch = compileGlob(pattern);
      const matches: string[] = [];
      let more = false;
      const { truncated } = await walkFiles(fs, base, { skipDirs, maxEntries: maxWalkEntries, ...(ctx.abortSignal ? { signal: ctx.abortSignal } : {}) }, ({ path: file }) => {
        const relToBase = base === '' ? file : file.slice(base.length + 1);
        if (!isMatch(relToBase)) return;
        if (matches.length >= maxEntries) {
          more = true;
          return false;
        }
        matches.push(file);
      });
      const notes: string[] = [];
      if (more) notes.push(`Showing the first ${maxEntries} matches; narrow the pattern.`);
      else if (truncated) notes.push(`The search stopped after ${maxWalkEntries} entries; search a smaller directory.`);
      return { pattern, matches, ...(notes.length ? { note: notes.join(' ') } : {}) };
    },
  });

  const grep = defineTool({
    name: 'grep',
    displayName: 'Search files',
    description: 'Search file contents with a regular expression (JavaScript syntax, run on RE2: no backreferences or lookaround). Returns matching lines as path, line number and text. Binary files are skipped.',
    input: z.object({
      pattern: z.string().min(1).describe('Regular expression'),
      path: z.string().optional().describe('File or directory to search (default: the root)'),
      glob: z.string().optional().describe('Only files matching this glob (e.g. "**/*.ts")'),
      ignore_case: z.boolean().optional(),
      max_matches: z.number().int().min(1).optional().describe(`At most this many matches (default and maximum ${maxGrepMatches})`),
    }),
    async execute({ pattern, path = '.', glob: fileGlob, ignore_case: ignoreCase = false, max_matches: wanted }, ctx) {
      // A model's pattern runs on RE2 (linear time): `^(a+)+$` on a long line cannot stall the process.
      const regex = compileGrepPattern(pattern, ignoreCase);
      try {
        const limit = Math.min(wanted ?? maxGrepMatches, maxGrepMatches);
        const base = confine(path);
        const fileMatch = fileGlob ? compileGlob(fileGlob) : undefined;
        const matches: { path: string; line: number; text: string }[] = [];
        let chars = 0;
        let stopped: string | undefined;
        let skippedBinary = 0;
        let skippedLarge = 0;
        const searchFile = async (file: string, size: number): Promise<boolean> => {
          if (size > maxFileBytes) {
            skippedLarge++;
            return true;
          }
          const bytes = await fs.readFile(file, { maxBytes: maxFileBytes });
          if (isBinary(bytes)) {
            skippedBinary++;
            return true;
          }
          const lines = decodeText(bytes).split('\n');
          for (let i = 0; i < lines.length; i++) {
            if (!regex.test(lines[i]!)) continue;
            if (matches.length >= limit) {
              stopped = `Showing the first ${limit} matches; narrow the pattern or the path.`;
              return false;
            }
            const text = cut(lines[i]!, Math.min(maxLineLength, 500));
            if (chars + text.length > maxGrepOutputChars) {
              stopped = `Showing ${matches.length} matches (the output limit of ${maxGrepOutputChars} characters was reached); narrow the search.`;
              return false;
            }
            chars += text.length;
            matches.push({ path: file, line: i + 1, text });
          }
          return true;
        };
        const stat = await fs.stat(base);
        if (!stat) throw notFound(displayPath(base));
        let truncated = false;
        if (stat.type === 'file') await searchFile(base, stat.size);
        else {
          ({ truncated } = await walkFiles(fs, base, { skipDirs, maxEntries: maxWalkEntries, ...(ctx.abortSignal ? { signal: ctx.abortSignal } : {}) }, async ({ path: file, entry }) => {
            if (fileMatch && !fileMatch(base === '' ? file : file.slice(base.length + 1))) return;
            return searchFile(file, entry.size);
          }));
        }
        const notes: string[] = [];
        if (stopped) notes.push(stopped);
        else if (truncated) notes.push(`The search stopped after ${maxWalkEntries} entries; search a smaller directory.`);
        if (skippedBinary) notes.push(`${skippedBinary} binary file(s) skipped.`);
        if (skippedLarge) notes.push(`${skippedLarge} file(s) over ${maxFileBytes} bytes skipped.`);
        return { pattern, matches, ...(notes.length ? { note: notes.join(' ') } : {}) };
      } finally {
        regex.dispose();
      }
    },
  });

  return { readFile, writeFile, editFile, listDir, glob, grep };
}

function compileGlob(pattern: string): (path: string) => boolean {
  try {
    return picomatch(pattern, { dot: true, windows: false });
  } catch (error) {
    throw new WorkspaceError(ERROR_CODES.LOUSHO_INVALID_INPUT, `The glob pattern '${pattern}' is not valid: ${(error as Error).message}`);
  }
}

function noMatch(path: string, message: string, hint?: string): WorkspaceError {
  return new WorkspaceError(ERROR_CODES.LOUSHO_EDIT_NO_UNIQUE_MATCH, message, { path, ...(hint ? { hint } : {}) });
}

function occurrences(text: string, needle: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) out.push(i);
  return out;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The line where `needle` starts when whitespace is ignored (a hint for a failed edit). */
function whitespaceInsensitiveLine(text: string, needle: string): number | undefined {
  const squash = (s: string) => s.replace(/\s+/g, '');
  const target = squash(needle);
  if (!target) return undefined;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let joined = '';
    for (let j = i; j < lines.length && joined.length < target.length; j++) joined += squash(lines[j]!);
    if (joined.startsWith(target)) return i + 1;
  }
  return undefined;
}

/** The grep tool's pattern on the linear-time engine; errors as workspace errors the model reads whole. */
function compileGrepPattern(pattern: string, ignoreCase: boolean): LinearRegExp {
  try {
    return compileLinearRegExp(pattern, { ignoreCase, who: 'The grep pattern' });
  } catch (error) {
    if (!(error instanceof SDKError)) throw error;
    throw new WorkspaceError(error.code as ErrorCode, error.message, { ...(error.hint ? { hint: error.hint } : {}) });
  }
}
