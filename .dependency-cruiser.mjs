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
        'declaration below both sides (packages/core/src/contracts for types, src/protocol for the wire).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contracts-import-only-contracts',
      severity: 'error',
      comment:
        "packages/core/src/contracts is the bottom of core: its types import nothing but each other (no module " +
        'of core above them, no package).',
      from: { path: '^packages/core/src/contracts/' },
      to: { pathNot: '^packages/core/src/contracts/' },
    },
    {
      name: 'core-imports-no-lousho-package',
      severity: 'error',
      comment:
        '@lousho/core is the bottom package: it never imports another @lousho/* package (they all depend on it; ' +
        'the reverse edge would be a package cycle).',
      from: { path: '^packages/core/src/' },
      to: { path: '^packages/(?!core/)[^/]+/' },
    },
    {
      name: 'client-imports-only-core-protocol',
      severity: 'error',
      comment:
        '@lousho/client (the browser half) may import from @lousho/core only its protocol layer ' +
        '(`@lousho/core/protocol`): nothing from the server half, nothing else of the workspace.',
      from: { path: '^packages/client/src/' },
      to: { path: '^packages/(?!client/)[^/]+/', pathNot: '^packages/core/src/protocol/' },
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
