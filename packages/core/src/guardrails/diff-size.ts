import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { Guardrail, GuardrailContext, GuardrailResult } from '@lousho/protocol';

/** Options of `createDiffSizeGuardrail()`. */
export interface DiffSizeGuardrailOptions {
  /** Most lines one call may change (removed plus added). */
  maxLines?: number;
  /** Most distinct files the run may change, this call included. */
  maxFiles?: number;
  /**
   * The tools that change files, with `createFsTools()`' argument shapes: `{ path, content }`
   * (a whole file) or `{ path, old_string, new_string }` (an edit). Default `['write_file', 'edit_file']`.
   */
  tools?: readonly string[];
  /** The guardrail's name (default `'diff-size'`). */
  name?: string;
  /** `'end-run'` (default) or `'deny-call'`: see `Guardrail.onBlock`. */
  onBlock?: 'end-run' | 'deny-call';
}

interface FileChange {
  path: string;
  /** Lines removed plus lines added (between the first and the last line that differ). */
  lines: number;
}

function lines(text: string): string[] {
  if (text === '') return [];
  const out = text.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

/** Lines removed plus added from `before` to `after`, once the lines both start and end with are set aside. */
export function changedLineCount(before: string, after: string): number {
  const a = lines(before);
  const b = lines(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  return endA - start + (endB - start);
}

function changeOf(args: unknown): FileChange | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const a = args as Record<string, unknown>;
  if (typeof a.path !== 'string') return undefined;
  if (typeof a.content === 'string') return { path: a.path, lines: lines(a.content).length };
  if (typeof a.old_string === 'string' && typeof a.new_string === 'string') return { path: a.path, lines: changedLineCount(a.old_string, a.new_string) };
  return undefined;
}

/** `./src//a.ts` and `src/a.ts` are the same file. */
function samePath(path: string): string {
  return path
    .split('/')
    .filter((s) => s !== '' && s !== '.')
    .join('/');
}

function positive(value: unknown, what: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${what} must be a positive integer, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * A tool guardrail that bounds how much a run may change: `maxLines` per call (a whole-file write
 * counts every line it writes; an edit counts the lines between its first and last difference),
 * and `maxFiles` distinct files per run.
 */
export function createDiffSizeGuardrail(options: DiffSizeGuardrailOptions = {}): Guardrail {
  const maxLines = positive(options.maxLines, 'maxLines');
  const maxFiles = positive(options.maxFiles, 'maxFiles');
  if (maxLines === undefined && maxFiles === undefined) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'createDiffSizeGuardrail() needs maxLines, maxFiles or both.', {
      hint: 'e.g. createDiffSizeGuardrail({ maxLines: 200, maxFiles: 10 })',
    });
  }
  const tools = options.tools ?? ['write_file', 'edit_file'];
  const check = (ctx: GuardrailContext): GuardrailResult => {
    if (ctx.stage !== 'tool' || !tools.includes(ctx.toolName)) return undefined;
    const change = changeOf(ctx.args);
    if (!change) return undefined;
    if (maxLines !== undefined && change.lines > maxLines) {
      return { block: `The change to ${change.path} touches ${change.lines} lines; at most ${maxLines} are allowed per change.` };
    }
    if (maxFiles !== undefined) {
      const files = new Set<string>();
      for (const call of ctx.previousCalls ?? []) {
        if (call.isError || !tools.includes(call.toolName)) continue;
        const earlier = changeOf(call.args);
        if (earlier) files.add(samePath(earlier.path));
      }
      files.add(samePath(change.path));
      if (files.size > maxFiles) return { block: `This run would change ${files.size} files; at most ${maxFiles} are allowed.` };
    }
    return undefined;
  };
  return { name: options.name ?? 'diff-size', check, ...(options.onBlock ? { onBlock: options.onBlock } : {}) };
}
