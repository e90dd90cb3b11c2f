import { readFile } from 'node:fs/promises';
import { dirname, extname, resolve } from 'node:path';
import { ERROR_CODES } from '../errors.js';
import { parseAgentSpec, SpecError } from '../spec/parse-spec.js';
import type { AgentSpec } from '../spec/schema.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);

/**
 * Reads a spec file and the spec files its `subagents` name, with every path in it (skills,
 * memory folders, sub-agent files) made absolute against the folder of the file that names it.
 */
export async function readSpecFile(path: string, seen: readonly string[] = []): Promise<AgentSpec> {
  const file = resolve(path);
  if (!EXTENSIONS.has(extname(file).toLowerCase())) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, 'is not a spec file: a spec is a .yaml, .yml or .json file.', { file, field: '' }, "loadSpec('./agent.yaml')");
  }
  if (seen.includes(file)) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `names itself as a sub-agent (${[...seen, file].join(' → ')}).`, { file, field: 'subagents' }, 'A spec cannot be its own sub-agent, directly or through others.');
  }
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `cannot be read (${(error as { code?: string }).code ?? 'error'}).`, { file, field: '' }, 'Check the path; it is relative to the working directory (or to the spec that names it).');
  }
  return resolvePaths(parseAgentSpec(text, file), dirname(file), [...seen, file]);
}

async function resolvePaths(spec: AgentSpec, base: string, seen: readonly string[]): Promise<AgentSpec> {
  const out: AgentSpec = { ...spec };
  if (spec.skills !== undefined) out.skills = resolve(base, spec.skills);
  if (spec.memory) out.memory = spec.memory.map((memory) => (memory.dir !== undefined ? { ...memory, dir: resolve(base, memory.dir) } : memory));
  if (spec.subagents) {
    out.subagents = [];
    for (const entry of spec.subagents) out.subagents.push(typeof entry === 'string' ? await readSpecFile(resolve(base, entry), seen) : await resolvePaths(entry, base, seen));
  }
  return out;
}
