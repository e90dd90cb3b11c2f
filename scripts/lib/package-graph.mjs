// The workspace's packages (packages/* and apps/*) and the imports between them, read from their
// package.json files, and the drawing of that graph in docs/architecture.md. The drawing is mermaid
// (GitHub renders it); `node scripts/package-graph.mjs` checks it against the package.json files and
// `--write` regenerates it, so it cannot drift.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const PACKAGE_FOLDERS = ['packages', 'apps'];

/** Every package folder of the workspace: `{ folder, name, manifest }`, sorted by folder. */
export function listPackages(root) {
  return PACKAGE_FOLDERS.flatMap((parent) =>
    readdirSync(join(root, parent), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(root, parent, entry.name, 'package.json')))
      .map((entry) => {
        const folder = `${parent}/${entry.name}`;
        const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
        return { folder, name: manifest.name, manifest };
      }),
  ).sort((a, b) => a.folder.localeCompare(b.folder));
}

/** The edges between workspace packages: `runtime` (dependencies, peer, optional) and `dev` (devDependencies only). */
export function packageEdges(packages) {
  const names = new Set(packages.map((pkg) => pkg.name));
  const runtime = [];
  const dev = [];
  for (const { name, manifest } of packages) {
    const shipped = new Set(
      ['dependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {})),
    );
    for (const dep of [...shipped].filter((dep) => names.has(dep)).sort()) runtime.push([name, dep]);
    for (const dep of Object.keys(manifest.devDependencies ?? {}).sort()) {
      if (names.has(dep) && !shipped.has(dep)) dev.push([name, dep]);
    }
  }
  return { runtime, dev };
}

// A mermaid node id for a package name: `@lousho/build-ai-agent` -> `build_ai_agent`.
const nodeId = (name) => name.replace(/^@lousho\//, '').replace(/[^A-Za-z0-9]/g, '_');

const RUNTIME_ARROW = '-->';
const DEV_ARROW = '-.->';

const nodeLine = ({ folder, name, manifest }) => `  ${nodeId(name)}["${name}${manifest.private ? ' (private)' : ''}<br/>${folder}"]`;

/**
 * The mermaid drawing of the graph, as two flowcharts so each stays readable: every package with a
 * solid arrow per runtime edge, then the packages tests and tools use with a dotted arrow per dev edge.
 */
export function drawGraph(packages, edges) {
  const inDev = new Set(edges.dev.flat());
  const chart = (nodes, arrows, arrow) => [
    '```mermaid',
    'flowchart TD',
    ...nodes.map(nodeLine),
    ...arrows.map(([from, to]) => `  ${nodeId(from)} ${arrow} ${nodeId(to)}`),
    '```',
  ];
  return [
    ...chart(packages, edges.runtime, RUNTIME_ARROW),
    '',
    'Used by tests, benchmarks and builds only (`devDependencies`):',
    '',
    ...chart(packages.filter((pkg) => inDev.has(pkg.name)), edges.dev, DEV_ARROW),
  ].join('\n');
}

export const START = '<!-- package-graph:start (node scripts/package-graph.mjs --write) -->';
export const END = '<!-- package-graph:end -->';

/** The drawing between the markers of a document, or undefined. */
export function drawingIn(text) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return undefined;
  return text.slice(start + START.length, end).trim();
}

/** Replaces the drawing between the markers. */
export function withDrawing(text, drawing) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`docs/architecture.md has no ${START} ... ${END} markers`);
  return `${text.slice(0, start + START.length)}\n${drawing}\n${text.slice(end)}`;
}

/** The nodes and edges a drawing states, read back from its text (so a hand edit is checked too). */
export function readDrawing(drawing) {
  const labels = new Map();
  const runtime = [];
  const dev = [];
  for (const line of drawing.split('\n').map((l) => l.trim())) {
    const node = /^(\w+)\["([^"<]+?)(?: \(private\))?<br\/>[^"]*"\]$/.exec(line);
    if (node) labels.set(node[1], node[2]);
    const edge = /^(\w+) (-->|-\.->) (\w+)$/.exec(line);
    if (edge) (edge[2] === RUNTIME_ARROW ? runtime : dev).push([edge[1], edge[3]]);
  }
  const name = (id) => labels.get(id) ?? `<undeclared node ${id}>`;
  return {
    nodes: [...labels.values()],
    runtime: runtime.map(([from, to]) => [name(from), name(to)]),
    dev: dev.map(([from, to]) => [name(from), name(to)]),
  };
}

/** What differs between the drawing and the package.json files, as sentences (empty when they agree). */
export function compareDrawing(drawing, packages, edges) {
  const drawn = readDrawing(drawing);
  const problems = [];
  const key = ([from, to]) => `${from} -> ${to}`;
  const diff = (kind, actual, shown) => {
    const want = new Set(actual.map(key));
    const have = new Set(shown.map(key));
    for (const edge of want) if (!have.has(edge)) problems.push(`missing ${kind} edge ${edge}`);
    for (const edge of have) if (!want.has(edge)) problems.push(`${kind} edge ${edge} is not in the package.json files`);
  };
  const names = new Set(packages.map((pkg) => pkg.name));
  for (const name of names) if (!drawn.nodes.includes(name)) problems.push(`missing package ${name}`);
  for (const name of drawn.nodes) if (!names.has(name)) problems.push(`package ${name} is not in packages/ or apps/`);
  diff('runtime (-->)', edges.runtime, drawn.runtime);
  diff('dev (-.->)', edges.dev, drawn.dev);
  return problems;
}
