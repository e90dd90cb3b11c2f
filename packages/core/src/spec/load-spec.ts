import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { loadNodeFiles } from '../utils/node-only.js';
import type { AgentSpec } from '@lousho/protocol';

/**
 * Loads and checks a `.yaml`, `.yml` or `.json` agent spec (Node, Bun, Deno). Sub-agents given as
 * files are loaded too; paths in the spec are relative to its file. A bad spec fails with
 * `LOUSHO_INVALID_SPEC` (or `LOUSHO_UNKNOWN_OPTION`) naming the file, the line and the field.
 */
export async function loadSpec(path: string): Promise<AgentSpec> {
  if (typeof path !== 'string' || path === '') throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'loadSpec() needs the path of a spec file.', { hint: "loadSpec('./agent.yaml')" });
  const module = await loadNodeFiles('loadSpec()', 'In a browser or a worker, parse the text with parseAgentSpec() and pass the spec to specToAgent().');
  return module.readSpecFile(path);
}
