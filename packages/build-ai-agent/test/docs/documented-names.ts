import { readFileSync } from 'node:fs';

/**
 * Reads the names the reference pages (docs/reference) document, and where they document them, so
 * the export test checks every one of them without a hand-kept list: a name added to the pages is
 * checked the day it is added.
 *
 * Where a name comes from:
 * - an `import { ... } from '@lousho/build-ai-agent[/x]'` in a code block (the exact entry);
 * - the first column of an `| Export |` table;
 * - a bullet that lists exports (`* \`A\`, \`B\` - what they are`);
 * - prose: a backticked call (`name(...)`) or a PascalCase name (`AgentConfig`, `PerRun<T>`), minus
 *   the words listed in NOT_EXPORTS (methods, options, globals, wire-format names).
 *
 * Where it lives: the package root (the overview says "the package root exports everything
 * below"), unless the text says otherwise: `(from \`/sqlite\`)`, "Exported from
 * `@lousho/build-ai-agent/testing`" or "Trigger adapters (`@lousho/build-ai-agent/triggers`)" at
 * the start of a section, "`@lousho/build-ai-agent/react` exports `x`", "`x` from the
 * `@lousho/build-ai-agent/otel` subpath", and "Available from the package root and from ..."
 * (every entry listed). "(package root)" in a sentence puts its names back at the root.
 */

export interface DocumentedName {
  name: string;
  /** '' for the package root, else the subpath without its slash ('testing', 'triggers'). */
  entry: string;
  /** Documented as something that runs (a call, a class used with `new`, a value import): it must exist at runtime. */
  value: boolean;
  /** Where the page documents it (page and line), for the failure message. */
  where: string;
}

const PACKAGE = '@lousho/build-ai-agent';

/**
 * Backticked words of the prose that look like exports and are not: each line says why. A word
 * here is never checked, so keep the list to what the pages really use that way.
 */
export const NOT_EXPORTS: Record<string, string> = {
  // Methods of documented objects (agent, session, run, registry, adapters, mock model, todo tools).
  send: 'agent.send()',
  stream: 'agent.stream()',
  execute: 'a tool\'s execute() / AgentExecutor.execute()',
  stop: 'the binding\'s stop()',
  approve: 'the binding\'s approve()',
  reject: 'the binding\'s reject()',
  reset: 'mockModel().reset()',
  assertExhausted: 'mockModel().assertExhausted()',
  register: 'ToolRegistry.register()',
  registerMany: 'ToolRegistry.registerMany()',
  getTodos: 'createTodoTools().getTodos()',
  compact: 'CompactionStrategy.compact()',
  listen: 'a trigger adapter\'s listen()',
  sandboxExecute: 'a defineTool() option',
  // The `ai` SDK's, named to say what Lousho replaces.
  tool: 'the ai SDK\'s tool()',
  ToolExecutionOptions: 'the ai SDK\'s type that ToolExecutionContext replaces',
  // Platform globals.
  AbortSignal: 'a platform global',
  AbortError: 'the platform\'s abort error name',
  TypeError: 'a platform global',
  Buffer: 'a Node global',
  // Wire-format names: the `error` field of a tool error result, not classes the package exports.
  ToolNotFoundError: 'the `error` name of a not-found tool result',
  ToolRejectedError: 'the `error` name of a rejected tool result',
  ToolNotRunError: 'the `error` name of a not-run tool result',
  McpToolError: 'the `error` name of an MCP tool error result',
  SandboxRequiredError: 'the `error` name of a sandbox tool result',
  ToolDeniedError: 'the `error` name of a denied tool result',
  // Cron syntax, not code.
  JAN: 'a cron month name',
  MON: 'a cron weekday name',
  // Options mentioned inside export bullets.
  requiresSandbox: 'a defineTool() option',
};

/**
 * Prose names whose entry the rules above read wrong, with the sentence that places them. Keep it
 * short: a name belongs here only when the page says where it lives in a way no rule catches.
 */
const ENTRY_OF_PROSE_NAME: Record<string, string> = {
  // Triggers: "`httpChannel()` and `webhookChannel()` are built in" follows "`defineChannel()` and
  // `mountChannels()` (package root)": the built-in channels live with them, at the root.
  httpChannel: '',
  webhookChannel: '',
};

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

export function documentedNames(files: readonly URL[]): DocumentedName[] {
  const found = new Map<string, DocumentedName>();
  // A bare prose mention at the root ("`SqliteStore.approvals`") of a name the pages place
  // elsewhere ("`SqliteStore` (from `/sqlite`)") adds nothing: such weak entries are dropped at the end.
  const weak = new Set<string>();
  const add = (name: string, entry: string, value: boolean, where: string, isWeak = false) => {
    if (!IDENTIFIER.test(name) || name in NOT_EXPORTS) return;
    const key = `${entry}:${name}`;
    const known = found.get(key);
    if (known) known.value ||= value;
    else found.set(key, { name, entry, value, where });
    if (!isWeak) weak.delete(key);
    else if (!known) weak.add(key);
  };
  for (const file of files) {
    const page = file.pathname.split('/').pop()!;
    const lines = readFileSync(file, 'utf8').split('\n');
    let inCode = false;
    let code: string[] = [];
    let codeStart = 0;
    let sectionEntry = '';
    let sectionIntro = false;
    let tableIsExports = false;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      const where = `${page}:${i + 1}`;
      if (line.startsWith('```')) {
        if (inCode) for (const [name, entry, value] of importsOf(code.join('\n'))) add(name, entry, value, `${page}:${codeStart}`);
        inCode = !inCode;
        code = [];
        codeStart = i + 1;
        sectionIntro = false;
        continue;
      }
      if (inCode) {
        code.push(line);
        continue;
      }
      if (/^## /.test(line)) {
        sectionEntry = '';
        sectionIntro = true;
        continue;
      }
      if (/^#{3,} /.test(line)) continue;
      // A section's opening prose can move the whole section to a subpath.
      if (sectionIntro) {
        if (line.startsWith('|') || line.startsWith('* ')) sectionIntro = false;
        else {
          const intro = /^(?:Exported from `@lousho\/build-ai-agent\/(\w+)`|[^.]*\(`@lousho\/build-ai-agent\/(\w+)`\))/.exec(line);
          if (intro) sectionEntry = intro[1] ?? intro[2]!;
        }
      }
      if (line.startsWith('|')) {
        const cells = line.split(/(?<!\\)\|/).slice(1, -1).map((cell) => cell.trim());
        if (/^-+$/.test(cells[0] ?? '')) continue;
        if (cells[0] === 'Export') {
          tableIsExports = true;
          continue;
        }
        // Names the other cells mention (`Fluent builder for an \`AgentConfig\``) are prose, at the root.
        addProse((tableIsExports ? cells.slice(1) : cells).join(' | '), '', where, add);
        if (!tableIsExports) continue;
        const first = cells[0]!;
        const entries = entriesOf(line) ?? [/\(from `\/(\w+)`\)/.exec(first)?.[1] ?? sectionEntry];
        for (const code of backticked(first)) {
          const name = leadingName(code);
          if (name) for (const entry of entries) add(name, entry, isValueSyntax(code), where);
        }
        continue;
      }
      tableIsExports = false;
      if (line.trim() === '') continue;
      // Prose: a paragraph, or a bullet with its indented continuation lines, read as one block.
      const block = [line];
      while (i + 1 < lines.length && lines[i + 1]!.trim() !== '' && !/^(\* |\||```|#)/.test(lines[i + 1]!) && !lines[i + 1]!.trimStart().startsWith('```')) block.push(lines[++i]!.trim());
      addProse(block.join(' '), sectionEntry, where, add);
    }
  }
  const placed = new Set([...found.keys()].filter((key) => !weak.has(key)).map((key) => key.slice(key.indexOf(':') + 1)));
  return [...found.entries()].filter(([key, documented]) => !weak.has(key) || !placed.has(documented.name)).map(([, documented]) => documented);
}

function addProse(text: string, sectionEntry: string, where: string, add: (name: string, entry: string, value: boolean, where: string, isWeak?: boolean) => void): void {
  const listEntries = entriesOf(text);
  // A bullet listing exports: `* \`A\`, \`B\` - what they are`: every name before the dash counts.
  const exportList = /^\* `[^`]+`.*?\s-\s/.exec(text)?.[0] ?? '';
  let offset = 0;
  for (const sentence of text.split(/(?<=\.)\s+(?=[A-Z`])/)) {
    const start = text.indexOf(sentence, offset);
    offset = start + sentence.length;
    const atRoot = sentence.includes('(package root)');
    const named = new Map<string, string>();
    for (const m of sentence.matchAll(/`@lousho\/build-ai-agent\/(\w+)` exports (?:the same )?`([^`]+)`/g)) named.set(leadingName(m[2]!) ?? '', m[1]!);
    for (const m of sentence.matchAll(/`([^`]+)` from the `@lousho\/build-ai-agent\/(\w+)`/g)) named.set(leadingName(m[1]!) ?? '', m[2]!);
    for (const m of sentence.matchAll(/`([^`]+)`/g)) {
      const code = m[1]!;
      const name = leadingName(code);
      if (!name) continue;
      const inExportList = start + m.index < exportList.length;
      if (!inExportList && !/^[A-Za-z_$][\w$]*\(/.test(code) && !/^[A-Z][A-Za-z0-9]*(<.*>|\.[\w$.]+)?$/.test(code)) continue;
      const placed = named.get(name) ?? ENTRY_OF_PROSE_NAME[name];
      const entries = placed !== undefined ? [placed] : ((inExportList ? listEntries : undefined) ?? [atRoot ? '' : sectionEntry]);
      const isWeak = placed === undefined && !inExportList && !atRoot;
      for (const entry of entries) add(name, entry, isValueSyntax(code), where, isWeak);
    }
  }
}

/** `import { a, type B } from '@lousho/build-ai-agent/x'` → [a, x, true], [B, x, false]. */
function importsOf(code: string): Array<[string, string, boolean]> {
  const out: Array<[string, string, boolean]> = [];
  for (const m of code.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    const from = m[3]!;
    if (from !== PACKAGE && !from.startsWith(`${PACKAGE}/`)) continue;
    const entry = from === PACKAGE ? '' : from.slice(PACKAGE.length + 1);
    for (const part of m[2]!.split(',').map((p) => p.trim()).filter(Boolean)) {
      const typeOnly = Boolean(m[1]) || part.startsWith('type ');
      out.push([part.replace(/^type\s+/, '').split(/\s+as\s+/)[0]!, entry, !typeOnly]);
    }
  }
  return out;
}

/** "Available from the package root, `@lousho/build-ai-agent/tools`, and `.../mcp`" → ['', 'tools', 'mcp']. */
function entriesOf(text: string): string[] | undefined {
  const m = /Available from ([^.]*)/.exec(text);
  if (!m) return undefined;
  const entries = [...m[1]!.matchAll(/`@lousho\/build-ai-agent\/(\w+)`/g)].map((e) => e[1]!);
  return m[1]!.includes('package root') ? ['', ...entries] : entries;
}

function backticked(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

/** `AgentExecutor.execute(opts)` → AgentExecutor, `ToolInput<typeof t>` → ToolInput, `createAgent({...})` → createAgent. */
function leadingName(code: string): string | undefined {
  if (code.startsWith('@') || code.includes('/') && !code.includes('(')) return undefined;
  const m = /^([A-Za-z_$][\w$]*)/.exec(code);
  if (!m) return undefined;
  const rest = code.slice(m[1]!.length);
  // Only a whole name, a call, a member access or a generic: not `x: y`, `a === b` or prose.
  return rest === '' || /^[(.<]/.test(rest) ? m[1] : undefined;
}

/** A call (`createAgent()`, `AgentExecutor.execute()`) is something that runs. */
function isValueSyntax(code: string): boolean {
  return /^[A-Za-z_$][\w$]*(\.[\w$]+)*\(/.test(code);
}

