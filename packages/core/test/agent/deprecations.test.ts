import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/** Suggestion diagnostics an editor shows (6385/6387: "'X' is deprecated", struck through). */
function deprecationsIn(code: string): string[] {
  const file = fileURLToPath(new URL('./__deprecation-probe.ts', import.meta.url));
  // The module that declares it (the package index re-exports it unchanged), to keep the program small.
  const index = fileURLToPath(new URL('../../src/agent/builder.ts', import.meta.url));
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [file],
    getScriptVersion: () => '1',
    getScriptSnapshot: (name) => {
      const text = name === file ? code.replace('@lousho/core', index.replace(/\.ts$/, '.js')) : ts.sys.readFile(name);
      return text === undefined ? undefined : ts.ScriptSnapshot.fromString(text);
    },
    getCurrentDirectory: () => process.cwd(),
    getCompilationSettings: () => ({ module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022, strict: true, skipLibCheck: true }),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: (name) => name === file || ts.sys.fileExists(name),
    readFile: (name) => (name === file ? code : ts.sys.readFile(name)),
  };
  const service = ts.createLanguageService(host);
  return service
    .getSuggestionDiagnostics(file)
    .filter((d) => d.reportsDeprecated)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('deprecations an editor shows', () => {
  it('AgentType is deprecated as a value, not only as a type', { timeout: 60_000 }, () => {
    const found = deprecationsIn(`import { AgentType } from '@lousho/core';\nexport const kind = AgentType.Default;\n`);
    expect(found.some((m) => m.includes("'AgentType' is deprecated"))).toBe(true);
  });
});
