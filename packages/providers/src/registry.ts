/**
 * Model strings (`openai/gpt-4o-mini`, `ollama/llama3.2`, `openrouter/anthropic/claude-3.5-sonnet`)
 * → providers. The registry maps a provider name to a factory; the built-in factories read their
 * credentials from the environment, so an app switches models by changing one string.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { closestName } from '@lousho/protocol';
import { AnthropicProvider } from './anthropic.js';
import { providerEnv, readVar, type ProviderEnv } from './env.js';
import { OllamaProvider } from './ollama.js';
import { OpenAIProvider } from './openai.js';
import { OpenRouterProvider } from './openrouter.js';
import type { FetchFunction } from './transport.js';
import type { LLMProvider } from '@lousho/protocol';

/** What a factory gets to build a provider. */
export interface ProviderFactoryContext {
  /** The model id after `provider/` (may itself contain slashes), or undefined for a bare name. */
  model: string | undefined;
  /** The environment to read credentials from (never undefined; `{}` in a browser). */
  env: ProviderEnv;
  /** A `fetch` to use instead of the global one, when the caller gave one. */
  fetch?: FetchFunction;
}

/** Builds a provider for `LLMProviderRegistry.register(name, factory)`, from the model id and the environment. */
export type ProviderFactory = (context: ProviderFactoryContext) => LLMProvider;

/** Options of `resolveProvider()`: where credentials come from, and the `fetch` the provider uses. */
export interface ResolveProviderOptions {
  /** Where credentials are read from (default: `process.env` when there is one, else nothing). */
  env?: ProviderEnv;
  /** Passed to the provider, e.g. to add a proxy or to test against a local server. */
  fetch?: FetchFunction;
}

const NAME = /^[a-z0-9][a-z0-9._-]*$/;

/** Registry of provider factories, keyed by the name before the slash of a model string. */
export class LLMProviderRegistry {
  static #default: LLMProviderRegistry | undefined;
  readonly #factories = new Map<string, ProviderFactory>();

  /** Starts with the built-in providers (openai, anthropic, openrouter, ollama) unless `builtins: false`. */
  constructor(options: { builtins?: boolean } = {}) {
    if (options.builtins !== false) {
      for (const [name, factory] of Object.entries(BUILTIN_FACTORIES)) this.#factories.set(name, factory);
    }
  }

  /** The registry `resolveProvider()` uses; register your own providers here to resolve them by name. */
  static get default(): LLMProviderRegistry {
    return (LLMProviderRegistry.#default ??= new LLMProviderRegistry());
  }

  /** Adds (or replaces) the factory for `name`. Names are case-insensitive. */
  register(name: string, factory: ProviderFactory): this {
    const key = name.trim().toLowerCase();
    if (!NAME.test(key)) {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Provider name ${JSON.stringify(name)} is not valid.`, {
        hint: 'Use letters, digits, dots, dashes or underscores, and no slash (e.g. "groq").',
      });
    }
    if (typeof factory !== 'function') {
      throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `The factory for provider "${key}" is not a function.`, {
        hint: 'Register a function ({ model, env }) => LLMProvider.',
      });
    }
    this.#factories.set(key, factory);
    return this;
  }

  /** True when a factory is registered under `name` (built-in or your own). */
  has(name: string): boolean {
    return this.#factories.has(name.trim().toLowerCase());
  }

  /** The registered provider names, sorted. */
  names(): string[] {
    return [...this.#factories.keys()].sort();
  }

  /**
   * Builds the provider for `provider/model` (a bare `provider` uses its default model). Throws
   * LOUSHO_UNKNOWN_PROVIDER listing the known names, or the factory's own error (e.g. a missing key).
   */
  create(modelString: string, options: ResolveProviderOptions = {}): LLMProvider {
    const { provider, model } = parseModelString(modelString);
    const factory = this.#factories.get(provider);
    if (!factory) {
      const known = this.names();
      const suggestion = closestName(provider, known);
      throw new SDKError(
        ERROR_CODES.LOUSHO_UNKNOWN_PROVIDER,
        `Unknown provider "${provider}" in model string "${modelString}"${suggestion ? `: did you mean "${suggestion}"?` : '.'} Known providers: ${known.length > 0 ? known.join(', ') : '(none)'}.`,
        { hint: `Write the model as provider/model, e.g. "openai/gpt-4o-mini", or register "${provider}" first.` },
      );
    }
    return factory({ model, env: providerEnv(options.env), ...(options.fetch ? { fetch: options.fetch } : {}) });
  }
}

/**
 * A real provider from a model string such as `openai/gpt-4o-mini`, with credentials from the
 * environment (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, `OPENROUTER_API_KEY`, `OLLAMA_HOST`).
 * The provider's default model is the one named, so `createAgent({ provider })` uses it.
 */
export function resolveProvider(modelString: string, options: ResolveProviderOptions = {}): LLMProvider {
  return LLMProviderRegistry.default.create(modelString, options);
}

/**
 * The provider `LOUSHO_MODEL` names (e.g. `openai/gpt-4o-mini`), or undefined when the variable is
 * unset or the provider's API key is missing, so an app can fall back to an offline model. A
 * malformed value or an unknown provider still throws: a typo should not silently go offline.
 */
export function providerFromEnv(
  env?: ProviderEnv,
  options: { fetch?: FetchFunction; registry?: LLMProviderRegistry } = {},
): { provider: LLMProvider; model: string } | undefined {
  const vars = providerEnv(env);
  const modelString = readVar(vars, 'LOUSHO_MODEL');
  if (!modelString) return undefined;
  const registry = options.registry ?? LLMProviderRegistry.default;
  let provider: LLMProvider;
  try {
    provider = registry.create(modelString, { env: vars, ...(options.fetch ? { fetch: options.fetch } : {}) });
  } catch (error) {
    if (SDKError.is(error) && error.code === ERROR_CODES.LOUSHO_MISSING_API_KEY) return undefined;
    throw error;
  }
  return { provider, model: parseModelString(modelString).model ?? provider.defaultModel ?? provider.name };
}

/** `openrouter/anthropic/claude-3.5-sonnet` → provider `openrouter`, model `anthropic/claude-3.5-sonnet`. */
export function parseModelString(modelString: string): { provider: string; model: string | undefined } {
  const value = typeof modelString === 'string' ? modelString.trim() : '';
  const slash = value.indexOf('/');
  const provider = (slash < 0 ? value : value.slice(0, slash)).toLowerCase();
  const model = slash < 0 ? undefined : value.slice(slash + 1);
  if (!provider || model === '') {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `Model string ${JSON.stringify(modelString)} is not of the form provider/model.`, {
      hint: 'Write it like "openai/gpt-4o-mini", "anthropic/claude-haiku-4-5" or "ollama/llama3.2".',
    });
  }
  return { provider, model };
}

const withFetch = (fetch: FetchFunction | undefined) => (fetch ? { fetch } : {});
const withModel = (model: string | undefined) => (model ? { model } : {});

const BUILTIN_FACTORIES: Record<string, ProviderFactory> = {
  // Each constructor reads its key (and base URL) from `env` and names the variable when it is missing.
  openai: ({ model, env, fetch }) => new OpenAIProvider({ env, ...withModel(model), ...withFetch(fetch) }),
  anthropic: ({ model, env, fetch }) => new AnthropicProvider({ env, ...withModel(model), ...withFetch(fetch) }),
  openrouter: ({ model, env, fetch }) => new OpenRouterProvider({ env, ...withModel(model), ...withFetch(fetch) }),
  ollama: ({ model, env, fetch }) => new OllamaProvider({ env, ...withModel(model), ...withFetch(fetch) }),
};
