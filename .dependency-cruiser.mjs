// The import rules of the workspace (issue 46, docs/architecture.md): imports point down only.
// `npm run deps` checks them over every package's src/ (CI runs it after lint). Type imports count:
// a type-only cycle ties the parts together for a reader as much as a value cycle does.

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'No import cycle anywhere: across files, folders and packages, type imports included. Move the shared ' +
        'declaration below both sides (packages/protocol/src/contracts for types, @lousho/protocol for the wire).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-import-only-contracts',
      severity: 'error',
      comment:
        "packages/protocol/src/contracts is the bottom of the workspace: its types import nothing but each other " +
        '(no module above them, no package of ours).',
      from: { path: '^packages/protocol/src/contracts/' },
      to: { pathNot: '^packages/protocol/src/contracts/' },
    },
    {
      name: 'protocol-imports-no-lousho-package',
      severity: 'error',
      comment:
        '@lousho/protocol is the bottom package: it never imports another @lousho/* package (they all depend on it, ' +
        'directly or through core; the reverse edge would be a package cycle).',
      from: { path: '^packages/protocol/src/' },
      to: { path: '^packages/(?!protocol/)[^/]+/' },
    },
    {
      name: 'providers-import-only-protocol',
      severity: 'error',
      comment:
        '@lousho/providers (the model providers, below core) may import only @lousho/protocol: never the loop ' +
        'or anything else of the workspace.',
      from: { path: '^packages/providers/src/' },
      to: { path: '^packages/(?!providers/|protocol/)[^/]+/' },
    },
    {
      name: 'otel-imports-only-protocol',
      severity: 'error',
      comment:
        '@lousho/otel (the OpenTelemetry exporter) implements the tracing contract of @lousho/protocol and imports ' +
        'nothing else of the workspace: the loop never depends on a tracing library.',
      from: { path: '^packages/otel/src/' },
      to: { path: '^packages/(?!otel/|protocol/)[^/]+/' },
    },
    {
      name: 'testing-imports-only-protocol-and-providers',
      severity: 'error',
      comment:
        '@lousho/testing (mockModel, recordReplay) sits below core, which re-exports it and tests with it: it may ' +
        'import only @lousho/protocol and @lousho/providers.',
      from: { path: '^packages/testing/src/' },
      to: { path: '^packages/(?!testing/|protocol/|providers/)[^/]+/' },
    },
    {
      name: 'store-kit-imports-only-protocol',
      severity: 'error',
      comment:
        '@lousho/store-kit (what memoryStore and the database stores are built from) sits below core, which uses ' +
        'it: it may import only @lousho/protocol.',
      from: { path: '^packages/store-kit/src/' },
      to: { path: '^packages/(?!store-kit/|protocol/)[^/]+/' },
    },
    {
      name: 'core-imports-only-protocol',
      severity: 'error',
      comment:
        '@lousho/core sits on @lousho/protocol, @lousho/providers, @lousho/store-kit and @lousho/testing alone: it ' +
        'never imports another @lousho/* package (they depend on it; the reverse edge would be a package cycle).',
      from: { path: '^packages/core/src/' },
      to: { path: '^packages/(?!core/|protocol/|providers/|store-kit/|testing/)[^/]+/' },
    },
    {
      name: 'client-imports-only-protocol',
      severity: 'error',
      comment:
        '@lousho/client (the browser half) may import only @lousho/protocol (the wire both halves share): ' +
        'nothing from the server half (@lousho/core), nothing else of the workspace.',
      from: { path: '^packages/client/src/' },
      to: { path: '^packages/(?!client/)[^/]+/', pathNot: '^packages/protocol/src/' },
    },
    {
      name: 'client-imports-nothing-node-only',
      severity: 'error',
      comment: '@lousho/client runs in every page: no Node built-in.',
      from: { path: '^packages/client/src/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment: 'An import the checker cannot resolve is an edge it cannot see: fix the import or the resolution options.',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    exclude: { path: '/node_modules/' },
    doNotFollow: { path: '/node_modules/' },
    // Type imports and `export type ... from` are dependencies too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    // Workspace packages resolve to their sources (the `@lousho/source` condition in their exports), so an
    // import of another package is an edge to its src/ file and cycles across packages are seen.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['@lousho/source', 'import', 'types', 'default'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
