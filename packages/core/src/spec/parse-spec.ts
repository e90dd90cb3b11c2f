import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { closestName } from '@lousho/protocol';
import { AGENT_SPEC_KEYS, agentSpecSchema, NESTED_SPEC_KEYS } from './schema.js';
import type { AgentSpec } from '@lousho/protocol';

/** A spec that does not validate: `file`, `line` (1-based, when known) and `field` (e.g. `limits.maxTokens`) say where. */
export class SpecError extends SDKError {
  readonly file: string | undefined;
  readonly line: number | undefined;
  readonly field: string;

  constructor(code: string, problem: string, where: { file?: string | undefined; line?: number | undefined; field: string }, hint: string) {
    const place = [where.file, where.line].filter((part) => part !== undefined).join(':');
    super(code, `${place ? `${place}: ` : ''}${where.field ? `\`${where.field}\` ` : ''}${problem}`, { hint });
    this.name = 'SpecError';
    this.file = where.file;
    this.line = where.line;
    this.field = where.field;
  }
}

type Path = readonly (string | number)[];

/** Finds the line of a field in the parsed YAML/JSON text (the line of its key). */
export type SpecLocator = (path: Path) => number | undefined;

function fieldName(path: Path): string {
  let out = '';
  for (const segment of path) out += typeof segment === 'number' ? `[${segment}]` : out ? `.${segment}` : segment;
  return out;
}

/**
 * Checks a spec object against `agentSpecSchema` and returns it typed. Problems throw `SpecError`
 * (`LOUSHO_INVALID_SPEC`; `LOUSHO_UNKNOWN_OPTION` for a key a spec does not have, naming the
 * closest one), naming the file and the line when the spec came from one.
 */
export function checkAgentSpec(value: unknown, where: { file?: string; locate?: SpecLocator } = {}, prefix: Path = []): AgentSpec {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, 'must be a mapping of fields (name, instructions, model, tools, ...).', { file: where.file, line: where.locate?.(prefix), field: fieldName(prefix) }, 'A spec starts with `name: my-agent`.');
  }
  // Nested specs first, so their problems are reported with their own path rather than as a failed union.
  const subagents = (value as { subagents?: unknown }).subagents;
  if (Array.isArray(subagents)) subagents.forEach((entry, i) => typeof entry === 'object' && entry !== null && checkAgentSpec(entry, where, [...prefix, 'subagents', i]));

  const parsed = agentSpecSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = [...prefix, ...(issue.path as (string | number)[])];
  const keys = (issue as { keys?: string[] }).keys;
  if (issue.code === 'unrecognized_keys' && keys && keys.length > 0) {
    const key = keys[0]!;
    const parent = [...path].reverse().find((segment): segment is string => typeof segment === 'string' && segment in NESTED_SPEC_KEYS);
    const lastString = [...path].reverse().find((segment) => typeof segment === 'string');
    const known = parent !== undefined && lastString === parent ? NESTED_SPEC_KEYS[parent]! : Object.keys(AGENT_SPEC_KEYS);
    const suggestion = closestName(key, known);
    const field = [...path, key];
    throw new SpecError(
      ERROR_CODES.LOUSHO_UNKNOWN_OPTION,
      `is not a field of a spec${suggestion ? `: did you mean \`${suggestion}\`?` : '.'}`,
      { file: where.file, line: where.locate?.(field), field: fieldName(field) },
      `The fields here are ${known.join(', ')}.`,
    );
  }
  throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, issueText(issue, value, issue.path as Path), { file: where.file, line: where.locate?.(path), field: fieldName(path) }, 'See docs/specs.md for every field of a spec.');
}

function issueText(issue: { code: string; message: string }, root: unknown, path: Path): string {
  let value: unknown = root;
  for (const segment of path) value = value && typeof value === 'object' ? (value as Record<string | number, unknown>)[segment] : undefined;
  if (value === undefined && issue.code === 'invalid_type') return 'is required.';
  const shown = JSON.stringify(value)?.slice(0, 60) ?? String(value);
  return `is invalid (${issue.message.replace(/\.$/, '')}), got ${shown}.`;
}

/** The line (1-based) of the key of `path` in `doc`, or of the nearest field above it that exists. */
function locator(doc: Document, counter: LineCounter): SpecLocator {
  return (path) => {
    let node: unknown = doc.contents;
    let offset: number | undefined = (doc.contents as { range?: [number] } | null)?.range?.[0];
    for (const segment of path) {
      if (isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && String(item.key.value) === String(segment));
        if (!pair) break;
        offset = (pair.key as { range?: [number] }).range?.[0] ?? offset;
        node = pair.value;
      } else if (isSeq(node) && typeof segment === 'number') {
        const item = node.items[segment] as { range?: [number] } | undefined;
        if (!item) break;
        offset = item.range?.[0] ?? offset;
        node = item;
      } else break;
    }
    return offset === undefined ? undefined : counter.linePos(offset).line;
  };
}

/**
 * Parses the text of a spec file (YAML, or JSON, which YAML reads too) and checks it. `file` names
 * the file in errors.
 */
export function parseAgentSpec(text: string, file?: string): AgentSpec {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `is not valid YAML or JSON: ${error.message.split('\n')[0]}`, { file, line: counter.linePos(error.pos[0]).line, field: '' }, 'Check the indentation and the quotes around that line.');
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (error) {
    // yaml throws a ReferenceError for an alias that expands too far (a "billion laughs" document).
    throw new SpecError(
      ERROR_CODES.LOUSHO_INVALID_SPEC,
      `uses YAML aliases (*name) that expand too far: ${error instanceof Error ? error.message : String(error)}`,
      { file, line: undefined, field: '' },
      `Write the repeated parts out, or use fewer aliases (at most ${MAX_ALIAS_COUNT} are resolved).`,
    );
  }
  return checkAgentSpec(value, { ...(file !== undefined ? { file } : {}), locate: locator(doc, counter) });
}

/** How many aliases a spec may resolve. */
const MAX_ALIAS_COUNT = 100;
