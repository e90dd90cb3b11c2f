import { ERROR_CODES, SDKError } from '@lousho/protocol';
import type { Memory, MemoryDefinition } from './types.js';

const MEMORY_NAME = /^[A-Za-z0-9_-]{1,50}$/;
const FIELDS = new Set(['name', 'scope', 'provider', 'description', 'recall']);

function invalid(message: string, hint: string): SDKError {
  return new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `defineMemory(): ${message}`, { hint });
}

function positiveInteger(value: unknown, fallback: number, field: string): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) throw invalid(`recall.${field} must be a positive integer, got ${String(value)}.`, `e.g. recall: { ${field}: ${fallback} }`);
  return value;
}

/**
 * Defines a memory: a named list of items kept across conversations, per `scope`. The agent recalls
 * the newest items into the system prompt on a run's first model call, and the model gets
 * `remember_<name>` and `recall_<name>` tools.
 */
export function defineMemory(definition: MemoryDefinition): Memory {
  if (typeof definition !== 'object' || definition === null) throw invalid('needs { name, scope, provider }.', "defineMemory({ name: 'notes', scope: 'global', provider: inMemoryMemory() })");
  for (const key of Object.keys(definition)) if (!FIELDS.has(key)) throw invalid(`unknown field \`${key}\`.`, 'A memory has name, scope, provider, description and recall.');
  const { name, scope, provider, description, recall } = definition;
  if (typeof name !== 'string' || !MEMORY_NAME.test(name)) throw invalid(`\`name\` must be 1-50 letters, digits, _ or - (it names the tools remember_<name> and recall_<name>), got ${JSON.stringify(name)}.`, "name: 'notes'");
  if (scope !== 'global' && scope !== 'session' && typeof scope !== 'function') throw invalid(`\`scope\` of memory '${name}' must be 'global', 'session' or a function of { sessionId, metadata }, got ${JSON.stringify(scope)}.`, "scope: 'session'");
  if (typeof provider !== 'object' || provider === null || typeof provider.add !== 'function' || typeof provider.recent !== 'function' || typeof provider.search !== 'function') {
    throw invalid(`\`provider\` of memory '${name}' must be a MemoryProvider (add, recent, search).`, 'Use inMemoryMemory() or fileMemory({ dir }).');
  }
  if (description !== undefined && (typeof description !== 'string' || description.trim() === '')) throw invalid(`\`description\` of memory '${name}' must be a non-empty string.`, "description: 'Facts about the user'");
  if (recall !== undefined && recall !== false && (typeof recall !== 'object' || recall === null)) throw invalid(`\`recall\` of memory '${name}' must be false or { limit?, maxTokens? }.`, 'recall: { limit: 20, maxTokens: 1000 }');
  if (recall) for (const key of Object.keys(recall)) if (key !== 'limit' && key !== 'maxTokens') throw invalid(`unknown field \`recall.${key}\`.`, 'recall has limit and maxTokens.');
  return Object.freeze({
    name,
    scope,
    provider,
    description,
    recall: recall === false ? false : { limit: positiveInteger(recall?.limit, 20, 'limit'), maxTokens: positiveInteger(recall?.maxTokens, 1000, 'maxTokens') },
  });
}

/** Checks a memory list: each from defineMemory(), names unique. */
export function checkMemories(memory: unknown): readonly Memory[] {
  if (!Array.isArray(memory)) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'memory must be a list of memories from defineMemory().', { hint: "memory: [defineMemory({ name: 'notes', scope: 'global', provider: inMemoryMemory() })]" });
  const seen = new Set<string>();
  for (const entry of memory as Memory[]) {
    if (typeof entry !== 'object' || entry === null || typeof entry.name !== 'string' || !Object.isFrozen(entry) || entry.recall === undefined) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'Every entry of memory must come from defineMemory().', { hint: 'Wrap it in defineMemory({ name, scope, provider }).' });
    }
    if (seen.has(entry.name)) throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Two memories are named '${entry.name}'.`, { hint: 'Give each memory a unique name.' });
    seen.add(entry.name);
  }
  return memory as readonly Memory[];
}
