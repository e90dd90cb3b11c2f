import { dirname, extname, resolve } from 'node:path';
import { ERROR_CODES } from '@lousho/protocol';
import { parseAgentSpec, SpecError } from '../spec/parse-spec.js';
import type { AgentSpec } from '@lousho/protocol';
import { readCapped } from './read-capped.js';

const EXTENSIONS = new Set(['.yaml', '.yml', '.json']);
/** Largest spec file read, in bytes (read with the cap: a larger file is refused after it). */
export const MAX_SPEC_FILE_BYTES = 1024 * 1024;
/** Most specs one `loadSpec()` reads and nests in all (the lead and every sub-agent, files and inline). */
export const MAX_SPECS = 100;
/** Deepest chain of sub-agent specs. */
export const MAX_SPEC_DEPTH = 8;

/** What one `loadSpec()` has read so far: specs are counted across the whole tree. */
interface Budget {
  specs: number;
}

/**
 * Reads a spec file and the spec files its `subagents` name, with every path in it (skills,
 * memory folders, sub-agent files) made absolute against the folder of the file that names it.
 */
export async function readSpecFile(path: string, seen: readonly string[] = [], budget: Budget = { specs: 0 }): Promise<AgentSpec> {
  const file = resolve(path);
  countSpec(budget, seen, file);
  if (!EXTENSIONS.has(extname(file).toLowerCase())) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, 'is not a spec file: a spec is a .yaml, .yml or .json file.', { file, field: '' }, "loadSpec('./agent.yaml')");
  }
  if (seen.includes(file)) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `names itself as a sub-agent (${[...seen, file].join(' → ')}).`, { file, field: 'subagents' }, 'A spec cannot be its own sub-agent, directly or through others.');
  }
  let read: Awaited<ReturnType<typeof readCapped>>;
  try {
    read = await readCapped(file, MAX_SPEC_FILE_BYTES);
  } catch (error) {
    throw new SpecError(ERROR_CODES.LOUSHO_INVALID_SPEC, `cannot be read (${(error as { code?: string }).code ?? 'error'}).`, { file, field: '' }, 'Check the path; it is relative to the working directory (or to the spec that names it).');
  }
  if (read.truncated) {
    throw new SpecError(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `is ${read.size} bytes; a spec file may have at most ${MAX_SPEC_FILE_BYTES} (1 MiB).`, { file, field: '' }, 'A spec names its tools, skills and sub-agents; long instructions belong in project instruction files.');
  }
  return resolvePaths(parseAgentSpec(read.text, file), dirname(file), [...seen, file], budget);
}

/** Counts one more spec in the tree; past MAX_SPECS, or MAX_SPEC_DEPTH deep, the load stops with LOUSHO_LIMIT_EXCEEDED. */
function countSpec(budget: Budget, seen: readonly string[], file: string): void {
  if (++budget.specs > MAX_SPECS) {
    throw new SpecError(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `would bring the sub-agent specs to more than ${MAX_SPECS} in all.`, { file, field: 'subagents' }, 'A spec tree this large is a mistake (or a file named many times over): name each sub-agent once.');
  }
  if (seen.length >= MAX_SPEC_DEPTH) {
    throw new SpecError(ERROR_CODES.LOUSHO_LIMIT_EXCEEDED, `is nested more than ${MAX_SPEC_DEPTH} sub-agents deep (${[...seen, file].join(' → ')}).`, { file, field: 'subagents' }, 'Flatten the chain of sub-agents.');
  }
}

async function resolvePaths(spec: AgentSpec, base: string, seen: readonly string[], budget: Budget): Promise<AgentSpec> {
  const out: AgentSpec = { ...spec };
  if (spec.skills !== undefined) out.skills = resolve(base, spec.skills);
  if (spec.memory) out.memory = spec.memory.map((memory) => (memory.dir !== undefined ? { ...memory, dir: resolve(base, memory.dir) } : memory));
  if (spec.subagents) {
    out.subagents = [];
    for (const entry of spec.subagents) {
      if (typeof entry === 'string') out.subagents.push(await readSpecFile(resolve(base, entry), seen, budget));
      else {
        countSpec(budget, seen, seen.at(-1) ?? base);
        out.subagents.push(await resolvePaths(entry, base, seen, budget));
      }
    }
  }
  return out;
}
