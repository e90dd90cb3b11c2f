// Cycles between the folders of a source tree, from a dependency-cruiser result: every module is
// collapsed to the folder it sits in directly under `root` (a file directly in `root` stands for
// itself), and each strongly connected component of more than one folder is a cycle. The file-level
// rule (no-circular) cannot see these: agent/a.ts → tools/b.ts → agent/c.ts is no file cycle.

/** The folder (or the root-level file) under `root` that `path` belongs to; undefined outside `root`. */
export function folderOf(path, root) {
  if (!path.startsWith(root)) return undefined;
  const rest = path.slice(root.length);
  const slash = rest.indexOf('/');
  return slash === -1 ? rest : rest.slice(0, slash);
}

/**
 * The folder cycles of `modules` (dependency-cruiser's `modules`: `{ source, dependencies: [{ resolved }] }`)
 * under `root` (e.g. `packages/core/src/`): each `{ folders, edges }`, with the folders of one strongly
 * connected component (sorted) and every import between two of them (`from` → `to`, paths under
 * `root`), the imports a fix has to move or turn around. Sorted by their first folder.
 */
export function folderCycles(modules, root) {
  const edges = new Map(); // folder -> folder -> [{ from, to }]
  for (const module of modules) {
    const from = folderOf(module.source, root);
    if (from === undefined) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    for (const dependency of module.dependencies ?? []) {
      const to = folderOf(dependency.resolved ?? '', root);
      if (to === undefined || to === from) continue;
      const byTarget = edges.get(from);
      if (!byTarget.has(to)) byTarget.set(to, []);
      byTarget.get(to).push({ from: module.source.slice(root.length), to: dependency.resolved.slice(root.length) });
    }
  }
  return stronglyConnected(edges)
    .filter((component) => component.length > 1)
    .map((component) => {
      const folders = [...component].sort();
      const members = new Set(folders);
      const inside = [];
      for (const from of folders) {
        for (const [to, imports] of [...(edges.get(from) ?? new Map())].sort(([a], [b]) => a.localeCompare(b))) {
          if (members.has(to)) inside.push(...[...imports].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to)));
        }
      }
      return { folders, edges: inside };
    })
    .sort((a, b) => a.folders[0].localeCompare(b.folders[0]));
}

/**
 * Every folder of every package's `src/` that `modules` touch (`packages/<name>/src/` and each folder
 * under it, at every depth), sorted: the roots `npm run deps` checks for folder cycles.
 */
export function sourceFolders(modules) {
  const folders = new Set();
  for (const module of modules) {
    const parts = module.source.split('/');
    if (parts[0] !== 'packages' || parts[2] !== 'src') continue;
    for (let depth = 3; depth < parts.length; depth++) folders.add(`${parts.slice(0, depth).join('/')}/`);
  }
  return [...folders].sort();
}

/**
 * The folder cycles of every source folder (`sourceFolders`): each `{ root, folders, edges }`, where
 * `root` is the folder whose subfolders and files form the cycle. Any one fails `npm run deps`.
 */
export function allFolderCycles(modules) {
  return sourceFolders(modules).flatMap((root) => folderCycles(modules, root).map((cycle) => ({ root, ...cycle })));
}

/** Tarjan's algorithm, iterative (no recursion depth to run out of): the components of `graph` (node -> Map of successors). */
function stronglyConnected(graph) {
  const nodes = new Set(graph.keys());
  for (const targets of graph.values()) for (const to of targets.keys()) nodes.add(to);
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const components = [];
  let next = 0;
  for (const start of nodes) {
    if (index.has(start)) continue;
    const work = [{ node: start, successors: [...(graph.get(start)?.keys() ?? [])], at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      if (frame.at < frame.successors.length) {
        const to = frame.successors[frame.at++];
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, successors: [...(graph.get(to)?.keys() ?? [])], at: 0 });
        } else if (onStack.has(to)) {
          low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        components.push(component);
      }
    }
  }
  return components;
}
