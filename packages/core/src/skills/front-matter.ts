import { isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml';

/** How many aliases a front matter may resolve (what guards against a "billion laughs" document). */
const MAX_ALIAS_COUNT = 100;

/** A parsed front matter: the fields, the line each field starts on, and where the body begins. */
export interface FrontMatter {
  fields: Record<string, unknown>;
  /** 1-based line in the file of each top-level field. */
  lines: Record<string, number>;
  body: string;
}

/** A problem with a front matter, at a 1-based line of the file. */
export interface FrontMatterProblem {
  line: number;
  message: string;
}

/**
 * Splits `text` into its YAML front matter (between a first line `---` and the next `---` or `...`
 * line) and the body after it, and parses the YAML. Returns a problem instead when there is no front
 * matter, it is not valid YAML, or it is not a mapping.
 */
export function parseFrontMatter(text: string): FrontMatter | FrontMatterProblem {
  const source = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  if (lines[0]?.trim() !== '---') return { line: 1, message: 'no YAML front matter: the file must start with a line `---`, then `name:` and `description:`, then `---`' };
  const end = lines.findIndex((line, i) => i > 0 && (line.trim() === '---' || line.trim() === '...'));
  if (end < 0) return { line: 1, message: 'the YAML front matter is not closed by a line `---`' };
  const yamlText = lines.slice(1, end).join('\n');
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, prettyErrors: false, uniqueKeys: true });
  // Lines of the YAML text start at file line 2 (after the opening `---`).
  const lineOf = (offset: number | undefined) => (offset === undefined ? 2 : counter.linePos(offset).line + 1);
  const error = doc.errors[0];
  if (error) return { line: lineOf(error.pos[0]), message: `invalid YAML: ${error.message.split('\n')[0]}` };
  const contents = doc.contents;
  if (contents !== null && !isMap(contents)) return { line: 2, message: 'the front matter must be a mapping of fields (`name: ...`)' };
  // Null-prototype records: a `__proto__:` field is a field like any other (and then refused as unknown).
  const fields = Object.create(null) as Record<string, unknown>;
  const fieldLines = Object.create(null) as Record<string, number>;
  for (const pair of contents?.items ?? []) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    const line = lineOf(isScalar(pair.key) ? pair.key.range?.[0] : undefined);
    try {
      // Aliases resolve within the document, up to MAX_ALIAS_COUNT (a "billion laughs" is refused).
      fields[key] = isNode(pair.value) ? pair.value.toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }) : pair.value;
    } catch (error) {
      return { line, message: `the YAML aliases of \`${key}\` expand too far (${error instanceof Error ? error.message : String(error)}); at most ${MAX_ALIAS_COUNT} are allowed` };
    }
    fieldLines[key] = line;
  }
  return { fields, lines: fieldLines, body: lines.slice(end + 1).join('\n').replace(/^\s*\n/, '') };
}
