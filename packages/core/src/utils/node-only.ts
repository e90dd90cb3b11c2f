import { ERROR_CODES, SDKError } from '@lousho/protocol';

type NodeFiles = typeof import('./node-files-types.js');

/**
 * Loads the Node-only file helpers (`#node-files`) on first use. Browsers and workers resolve that
 * import to a stand-in (package.json "imports" conditions), so their bundles never follow it into
 * `node:fs`; there the feature fails with `LOUSHO_INVALID_CONFIG` saying it needs Node.
 */
export async function loadNodeFiles(feature: string, hint: string): Promise<NodeFiles> {
  let module: NodeFiles | undefined;
  let cause: unknown;
  try {
    module = (await import('#node-files')) as NodeFiles;
  } catch (error) {
    cause = error;
  }
  if (!module?.available) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `${feature} needs Node (or Bun, Deno) to read or write files, and this runtime has none.`, { hint, ...(cause !== undefined ? { cause } : {}) });
  }
  return module;
}
