#!/usr/bin/env node
// Bundle budgets, measured the way an app ships them: each check is a one-line app
// (`import { x } from '<package>'; console.log(x)`) built by Vite 8 for production (Rolldown with
// code splitting, its default Oxc minifier and browser target). What counts is what the page loads
// up front: the entry chunk and the chunks it imports statically, gzipped at level 9. A chunk loaded
// with import() (the in-process transport) is listed as "on demand" and not counted.
//
// Vite wraps every import() of an app in its module-preload helper (about 650 B gzipped). That is
// Vite's runtime, shared by every lazy route of the app, not ours: the budgeted number is measured
// with a one-line stand-in for it, and the size with the real helper (an app with no other import())
// is printed next to it.
//
// The budgets: 6 KiB (6,144 B) for the client over HTTP (packages/client), 6.5 KiB (6,656 B) for each
// binding's HTTP path (packages/react, vue, svelte), each in its package's bundle-size.config.js.
//
// Run in a package folder (`pnpm --filter @lousho/client run size`); reads ./bundle-size.config.js:
// [{ name, entry: './src/index.ts', imports: ['createAgentClient'], external?: ['react'], limit?: bytes }].
// A check with a `limit` fails the run (exit code 1) when over it; one without is reported only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, defaultClientConditions, rolldownVersion, version } from 'vite';

const PRELOAD_HELPER = '\0vite/preload-helper.js';

/** Replaces Vite's module-preload helper with a pass-through (see above). */
const passThroughPreload = {
  name: 'bundle-size:pass-through-preload',
  enforce: 'pre',
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  load: (id) => (id === PRELOAD_HELPER ? 'export const __vitePreload = (load) => load();' : undefined),
};

const gzipped = (code) => gzipSync(code, { level: 9 }).length;
const bytes = (n) => `${n.toLocaleString('en-US')} B`;

/** Builds the app for `check`; returns the initial chunks and the on-demand ones. */
async function measure(check, dir, withViteHelper) {
  const app = mkdtempSync(join(tmpdir(), 'lousho-size-'));
  try {
    const entry = resolve(dir, check.entry);
    const names = check.imports.join(', ');
    writeFileSync(join(app, 'main.js'), `import { ${names} } from ${JSON.stringify(entry)};\nconsole.log(${names});\n`);
    const external = check.external ?? [];
    const result = await build({
      configFile: false,
      root: app,
      logLevel: 'error',
      mode: 'production',
      plugins: withViteHelper ? [] : [passThroughPreload],
      // The workspace packages are read from their TypeScript sources (no build needed first).
      resolve: { conditions: ['@lousho/source', ...defaultClientConditions] },
      build: {
        write: false,
        rollupOptions: {
          input: join(app, 'main.js'),
          external: (id) => external.some((name) => id === name || id.startsWith(`${name}/`)),
        },
      },
    });
    const chunks = (Array.isArray(result) ? result : [result]).flatMap((output) => output.output).filter((item) => item.type === 'chunk');
    const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
    const initial = new Set();
    const visit = (chunk) => {
      if (!chunk || initial.has(chunk)) return;
      initial.add(chunk);
      for (const file of chunk.imports) visit(byFile.get(file));
    };
    for (const chunk of chunks) if (chunk.isEntry) visit(chunk);
    const onDemand = chunks.filter((chunk) => !initial.has(chunk));
    const size = (list) => list.reduce((sum, chunk) => sum + gzipped(chunk.code), 0);
    return { initial: size([...initial]), onDemand: onDemand.map((chunk) => `${chunk.name} ${bytes(gzipped(chunk.code))}`) };
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}

const dir = process.cwd();
const { default: checks } = await import(pathToFileURL(join(dir, 'bundle-size.config.js')).href);
console.log(`Initial chunks of a Vite ${version} (Rolldown ${rolldownVersion}) production app build, minified, gzip -9:`);
let failed = false;
for (const check of checks) {
  const own = await measure(check, dir, false);
  const withHelper = await measure(check, dir, true);
  const verdict =
    check.limit === undefined
      ? 'reported, no budget'
      : own.initial <= check.limit
        ? `budget ${bytes(check.limit)}: met, ${bytes(check.limit - own.initial)} to spare`
        : `budget ${bytes(check.limit)}: OVER by ${bytes(own.initial - check.limit)}`;
  if (check.limit !== undefined && own.initial > check.limit) failed = true;
  console.log(`\n  ${check.name}\n    ${bytes(own.initial)}  (${verdict})`);
  console.log(`    with Vite's module-preload helper (an app with no other import()): ${bytes(withHelper.initial)}`);
  if (own.onDemand.length > 0) console.log(`    on demand, not counted: ${own.onDemand.join(', ')}`);
}
if (failed) {
  console.error('\nA bundle is over its budget (see above).');
  process.exit(1);
}
