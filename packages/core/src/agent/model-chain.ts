import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { withFallback } from '@lousho/providers';
import { resolveProvider } from '@lousho/providers';
import { withRetry, type RetryOptions } from '@lousho/providers';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';

/** The provider a run calls when it has `retry` or `fallbackModels`, and which model answered last. */
export interface ModelChain {
  provider: LLMProvider;
  modelUsed(): string | undefined;
}

export interface ModelChainOptions {
  fallbackModels?: readonly string[] | undefined;
  retry?: RetryOptions | boolean | undefined;
  /** The agent was made from a model string: fallbacks are model strings too (`provider/model`), each resolved from the environment. */
  modelStrings: boolean;
}

/**
 * Builds a run's provider from the existing wrappers: each model is retried (`withRetry`) before the
 * next one is tried (`withFallback`), and a fallback is tried only while nothing has been streamed.
 * One chain per run leg, so `modelUsed` (the model whose answer the run got, for usage and cost)
 * is never shared between runs. Undefined when there is nothing to wrap.
 */
export function modelChain(base: LLMProvider, runModel: string, options: ModelChainOptions): ModelChain | undefined {
  const fallbacks = options.fallbackModels ?? [];
  const retry = options.retry === true ? {} : options.retry || undefined;
  if (fallbacks.length === 0 && !retry) return undefined;
  let used: string | undefined;
  const link = (provider: LLMProvider, model: string): LLMProvider => {
    const retried = retry ? withRetry(provider, retry) : provider;
    return {
      name: provider.name,
      defaultModel: model,
      async *stream(request: GenerateOptions): AsyncGenerator<StreamChunk> {
        let first = true;
        for await (const chunk of retried.stream({ ...request, model })) {
          // Only the provider that answers streams anything (fallback moves on before any chunk).
          if (first) {
            used = model;
            first = false;
          }
          yield chunk;
        }
      },
    };
  };
  const links = [link(base, runModel)];
  for (const id of fallbacks) {
    if (options.modelStrings) {
      const provider = resolveProvider(id);
      links.push(link(provider, provider.defaultModel ?? id));
    } else {
      links.push(link(base, id));
    }
  }
  return { provider: links.length === 1 ? links[0]! : withFallback(links), modelUsed: () => used };
}

/** Checks a resolved `fallbackModels` value. */
export function checkFallbackModels(value: unknown): readonly string[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string' && id.trim() !== '')) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, `fallbackModels must be a list of model ids, got ${JSON.stringify(value)?.slice(0, 80) ?? String(value)}.`, {
      hint: "e.g. fallbackModels: ['gpt-4o-mini'] (tried in order when the provider fails).",
    });
  }
  return value as readonly string[];
}
