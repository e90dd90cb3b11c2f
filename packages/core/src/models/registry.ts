import { ModelInfoError } from './errors.js';
import { BUILT_IN_ALIASES, BUILT_IN_MODELS } from './modelData.js';
import type { ModelInfo } from '@lousho/protocol';

/** Prefixes of routers that serve other vendors' models under `<router>/<vendor>/<model>`. */
const GATEWAY_PROVIDERS = new Set(['openrouter']);

/** Longer ids are not model ids; refusing them keeps the suffix rules cheap. */
const MAX_ID_LENGTH = 512;

/** Suffixes of pinned versions of a model, tried one at a time from the end of the id. */
const SNAPSHOT_SUFFIXES: readonly RegExp[] = [
  /-\d{4}-\d{2}-\d{2}$/, // OpenAI: gpt-4o-mini-2024-07-18
  /-\d{8}$/, // Anthropic: claude-sonnet-4-20250514
  /-\d{4}$/, // OpenAI legacy: gpt-3.5-turbo-0125
  /-latest$/, // claude-3-5-haiku-latest
  /:[^:/]+$/, // Ollama tags and OpenRouter variants: llama3.1:8b, ...:free
];

// One table: built-ins first, registrations override in place or append.
const models = new Map<string, ModelInfo>(BUILT_IN_MODELS.map((m) => [m.id, Object.freeze({ ...m })]));

/**
 * Looks a model up by the id you use with a provider. Tries, in order: the exact id, a built-in alias,
 * `provider/id` (e.g. `openai/gpt-4o-mini`, also behind `openrouter/`), then pinned snapshots of a
 * known model (`gpt-4o-mini-2024-07-18`, `claude-sonnet-4-20250514`, `-latest`, `llama3.1:8b`), and
 * finally OpenRouter's dotted versions (`claude-3.5-haiku`). Unknown models give `undefined`.
 */
export function getModelInfo(id: string): ModelInfo | undefined {
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH) return undefined;
  return lookup(id);
}

function lookup(id: string): ModelInfo | undefined {
  const exact = models.get(id);
  if (exact) return exact;

  const aliasTarget = Object.hasOwn(BUILT_IN_ALIASES, id) ? BUILT_IN_ALIASES[id] : undefined;
  if (aliasTarget !== undefined) {
    const aliased = models.get(aliasTarget);
    if (aliased) return aliased;
  }

  const slash = id.indexOf('/');
  if (slash > 0) {
    const prefix = id.slice(0, slash);
    const inner = lookup(id.slice(slash + 1));
    if (inner && (inner.provider === prefix || GATEWAY_PROVIDERS.has(prefix))) return inner;
  }

  for (const suffix of SNAPSHOT_SUFFIXES) {
    const base = id.replace(suffix, '');
    if (base !== id && base.length > 0) {
      const found = lookup(base);
      if (found) return found;
    }
  }

  const dashed = id.replace(/(\d)\.(\d)/g, '$1-$2');
  return dashed !== id ? models.get(dashed) : undefined;
}

/**
 * Adds a model or overrides a built-in one (the latest registration of an id wins). Register a
 * custom or fine-tuned model under the exact id you pass as the model to get its cost.
 */
export function registerModel(info: ModelInfo): void {
  const valid = validate(info);
  models.set(valid.id, valid);
}

/** Every known model, built-ins first, with registrations applied. */
export function listModels(): ModelInfo[] {
  return [...models.values()];
}

function validate(info: ModelInfo): ModelInfo {
  if (typeof info !== 'object' || info === null) {
    throw new ModelInfoError('registerModel() needs an object.', 'Pass { id, provider, contextWindow, ... }.');
  }
  if (typeof info.id !== 'string' || info.id.length === 0) {
    throw new ModelInfoError('registerModel(): `id` must be a non-empty string.', 'Use the id you pass as the model, e.g. "my-llama".');
  }
  if (typeof info.provider !== 'string' || info.provider.length === 0) {
    throw new ModelInfoError(`registerModel("${info.id}"): \`provider\` must be a non-empty string.`, 'For example "openai", "anthropic" or "ollama".');
  }
  if (!isPositive(info.contextWindow)) {
    throw new ModelInfoError(`registerModel("${info.id}"): \`contextWindow\` must be a positive number of tokens.`, 'For example 128000.');
  }
  const out: ModelInfo = { id: info.id, provider: info.provider, contextWindow: info.contextWindow };
  for (const key of ['inputCostPerMTok', 'outputCostPerMTok', 'cachedInputCostPerMTok'] as const) {
    const value = info[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
      throw new ModelInfoError(`registerModel("${info.id}"): \`${key}\` must be a non-negative number of USD per million tokens.`, 'Leave it out when the price is unknown or free.');
    }
    out[key] = value;
  }
  if (info.maxOutputTokens !== undefined && info.maxOutputTokens !== null) {
    if (!isPositive(info.maxOutputTokens)) {
      throw new ModelInfoError(`registerModel("${info.id}"): \`maxOutputTokens\` must be a positive number.`, 'Leave it out when unknown.');
    }
    out.maxOutputTokens = info.maxOutputTokens;
  }
  return Object.freeze(out);
}

function isPositive(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}
