// The slice of Node's `process` that core reads (its built-in modules, its environment), typed here
// so the root entry type-checks without @types/node. @lousho/workspace types the rest it uses.

interface NodeProcess {
  env?: Record<string, string | undefined>;
  getBuiltinModule?: (id: string) => unknown;
}

/** Node's `process`, where there is one. */
export const nodeProcess = (): NodeProcess | undefined => (globalThis as { process?: NodeProcess }).process;
