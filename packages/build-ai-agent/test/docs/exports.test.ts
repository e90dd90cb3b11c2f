import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { documentedNames, type DocumentedName } from './documented-names.js';

// Every name the reference pages (docs/reference) document exists where they say, in the BUILT
// package: its declarations (dist/*.d.ts, resolved through the exports map with no source
// condition, as a user's TypeScript sees them) and its JavaScript (dist/*.js, imported by a plain
// Node process, as a user's program runs it). `npm test` builds it first (scripts/setup.mjs); run
// alone, `npm run build -- --filter=@lousho/build-ai-agent` first.

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const pages = [new URL('../../../../docs/reference/lousho-api-overview.md', import.meta.url), new URL('../../../../docs/reference/lousho-tools.md', import.meta.url)];
const PACKAGE = '@lousho/build-ai-agent';

/**
 * Documented names other branches are building right now, by issue. The test asserts each one is
 * STILL missing: when one lands, this test fails and its entry must go (the name is then checked
 * like every other). Nothing else may be missing.
 */
const PENDING: Record<number, { what: string; names: readonly string[] }> = {
};
const pendingIssue = new Map(Object.entries(PENDING).flatMap(([issue, { names }]) => names.map((name) => [name, Number(issue)] as const)));

/** Documented as deprecated: must exist, and carry `@deprecated` in its declaration. */
const DEPRECATED = ['AgentType'];

const documented = documentedNames(pages);
const label = (d: DocumentedName) => `${d.name} at ${d.entry ? `${PACKAGE}/${d.entry}` : PACKAGE} (${d.where})`;

interface EntryExports {
  /** Every exported name of the entry's declarations, with whether it is a value and its JSDoc tags. */
  declared: Map<string, { value: boolean; tags: string[] }>;
  /** The keys of the entry's module namespace at runtime. */
  runtime: Set<string>;
}

const entries = new Map<string, EntryExports | undefined>();

beforeAll(async () => {
  const exportsMap = JSON.parse(readFileSync(`${packageDir}/package.json`, 'utf8')).exports as Record<string, unknown>;
  const published = Object.keys(exportsMap).filter((key) => key !== './package.json').map((key) => key.slice(2));
  const wanted = [...new Set(documented.map((d) => d.entry))];
  for (const entry of wanted) entries.set(entry, undefined);
  const present = wanted.filter((entry) => published.includes(entry));

  // Declarations: a file importing each entry by the package's own name, resolved by TypeScript
  // through the exports map (the `types` condition, dist/*.d.ts).
  const dir = `${packageDir}/node_modules/.cache/export-test`;
  mkdirSync(dir, { recursive: true });
  const file = `${dir}/check.ts`;
  writeFileSync(file, present.map((entry, i) => `import * as entry${i} from '${entry ? `${PACKAGE}/${entry}` : PACKAGE}';\nexport { entry${i} };\n`).join(''));
  const program = ts.createProgram([file], { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, noEmit: true, skipLibCheck: true, types: [] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file)!;
  const imports = source.statements.filter(ts.isImportDeclaration);
  present.forEach((entry, i) => {
    const moduleSymbol = checker.getSymbolAtLocation(imports[i]!.moduleSpecifier);
    if (!moduleSymbol) throw new Error(`TypeScript cannot resolve ${PACKAGE}/${entry}: is the package built? (\`npm test\` builds it; alone: \`npm run build -- --filter=${PACKAGE}\`)`);
    const resolvedFile = moduleSymbol.valueDeclaration?.getSourceFile().fileName ?? '';
    expect(resolvedFile, `${entry} resolves to the built declarations`).toMatch(/\/dist\/.*\.d\.ts$/);
    const declared = new Map<string, { value: boolean; tags: string[] }>();
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      declared.set(symbol.name, { value: (target.flags & ts.SymbolFlags.Value) !== 0, tags: target.getJsDocTags(checker).map((tag) => tag.name) });
    }
    entries.set(entry, { declared, runtime: new Set() });
  });

  // JavaScript: a plain Node process (no source condition) imports each entry by the package's name.
  const script = `const out = {}; for (const e of ${JSON.stringify(present)}) out[e] = Object.keys(await import(e ? '${PACKAGE}/' + e : '${PACKAGE}')); console.log(JSON.stringify(out));`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: packageDir, maxBuffer: 16 * 1024 * 1024 });
  const runtime = JSON.parse(stdout) as Record<string, string[]>;
  for (const entry of present) entries.get(entry)!.runtime = new Set(runtime[entry]);
}, 120_000);

describe('the built package exports every name the reference pages document', () => {
  it('the pages document a plausible number of names (the extraction works)', () => {
    expect(documented.length).toBeGreaterThan(120);
    for (const name of ['createAgent', 'defineTool', 'ToolInput', 'mockModel', 'loadMcpTools', 'WebhookTriggerAdapter', 'createEmailTool', 'ERROR_CODES', 'AgentType']) {
      expect(documented.some((d) => d.name === name), name).toBe(true);
    }
    expect(documented.find((d) => d.name === 'mockModel')?.entry).toBe('testing');
    expect(documented.filter((d) => d.name === 'loadMcpTools').map((d) => d.entry).sort()).toEqual(['', 'mcp', 'tools']);
  });

  it('every documented name is declared and, when it is a value, present at runtime, where the pages say', () => {
    const missing: string[] = [];
    for (const d of documented) {
      if (pendingIssue.has(d.name)) continue;
      const entry = entries.get(d.entry);
      const declared = entry?.declared.get(d.name);
      if (!entry || !declared) missing.push(`${label(d)}: not exported`);
      else if (d.value && !declared.value) missing.push(`${label(d)}: documented as a call, exported as a type only`);
      else if (declared.value && !entry.runtime.has(d.name)) missing.push(`${label(d)}: declared, but not in the built JavaScript`);
    }
    expect(missing).toEqual([]);
  });

  it('pending names (other branches, by issue) are still missing: remove an entry when its name lands', () => {
    const landed: string[] = [];
    for (const [name, issue] of pendingIssue) {
      const places = documented.filter((d) => d.name === name);
      expect(places.length, `${name} (issue ${issue}) is no longer documented: remove it from PENDING`).toBeGreaterThan(0);
      for (const d of places) if (entries.get(d.entry)?.declared.has(name)) landed.push(`${label(d)} (issue ${issue})`);
    }
    expect(landed).toEqual([]);
  });

  it.each(DEPRECATED)('%s exists at the root with its deprecation', (name) => {
    const declared = entries.get('')?.declared.get(name);
    expect(declared).toBeDefined();
    expect(declared!.tags).toContain('deprecated');
  });
});
