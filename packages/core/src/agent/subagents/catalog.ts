import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { RunConfigContext } from '@lousho/protocol';
import { delegationHandleOf } from './handle.js';
import type { SubagentCatalog, SubagentsOption } from '../subagents-option.js';
import type { SubagentInfo } from '@lousho/protocol';

export type { SubagentsOption } from '../subagents-option.js';

const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

function invalid(message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, message, { hint });
}

export function isCatalog(value: unknown): value is SubagentCatalog {
  const v = value as Partial<SubagentCatalog> | null;
  return typeof v === 'object' && v !== null && typeof v.list === 'function' && typeof v.resolve === 'function';
}

/**
 * Checks the option when the agent is created: agents by name must be `createAgent()` agents with
 * a `description` (the lead's prompt lists it). A catalog is checked on each run, when it lists.
 */
export function checkSubagents(option: unknown): void {
  if (option === undefined || isCatalog(option)) return;
  if (typeof option !== 'object' || option === null || Array.isArray(option)) {
    throw invalid('`subagents` must be an object of agents by name, or a catalog { list(ctx), resolve(name, ctx) }.', 'Pass subagents: { researcher, writer } with agents from createAgent().');
  }
  for (const [name, agent] of Object.entries(option)) {
    if (!NAME.test(name)) throw invalid(`Sub-agent name '${name}' is not usable: 1-64 letters, digits, '_', '.' or '-'.`, 'Rename the key in `subagents`.');
    if (!delegationHandleOf(agent)) throw invalid(`Sub-agent '${name}' is not an agent made by createAgent().`, 'Create each sub-agent with createAgent({ description, ... }).');
    const description = (agent as { description?: unknown }).description;
    if (typeof description !== 'string' || description.trim() === '') {
      throw invalid(`Sub-agent '${name}' has no description; the lead agent chooses sub-agents by it.`, `Give it one: createAgent({ description: 'What ${name} does', ... }).`);
    }
  }
}

/** The sub-agents of one run: their listing, and how to get the agent the model picked. */
export interface RunSubagents {
  list: readonly SubagentInfo[];
  resolve(name: string): Promise<unknown>;
}

/** Lists the sub-agents for a run (a catalog's `list(ctx)` runs here; what it returns is checked). */
export async function subagentsForRun(option: SubagentsOption, ctx: RunConfigContext): Promise<RunSubagents> {
  if (!isCatalog(option)) {
    const list = Object.entries(option).map(([name, agent]) => ({ name, description: (agent as { description: string }).description }));
    return { list, resolve: async (name) => (Object.hasOwn(option, name) ? option[name] : undefined) };
  }
  const listed = await option.list(ctx);
  if (!Array.isArray(listed)) throw invalid('The sub-agent catalog\'s list() must return an array of { name, description }.', 'Return [{ name, description }, ...] from list(ctx).');
  const seen = new Set<string>();
  const list: SubagentInfo[] = [];
  for (const entry of listed as unknown[]) {
    const { name, description } = (entry ?? {}) as Partial<SubagentInfo>;
    if (typeof name !== 'string' || !NAME.test(name)) throw invalid(`The sub-agent catalog listed an unusable name: ${JSON.stringify(name)}.`, "Names are 1-64 letters, digits, '_', '.' or '-'.");
    if (typeof description !== 'string' || description.trim() === '') throw invalid(`The sub-agent catalog listed '${name}' without a description.`, 'Give every listed sub-agent a description.');
    if (seen.has(name)) throw invalid(`The sub-agent catalog listed '${name}' twice.`, 'List each name once.');
    seen.add(name);
    list.push({ name, description });
  }
  return { list, resolve: async (name) => (seen.has(name) ? await option.resolve(name, ctx) : undefined) };
}
