/**
 * withFallback(): try providers in order until one answers. Like withRetry(), it moves on only
 * while nothing has been streamed, and never after an abort.
 */
import { ERROR_CODES, SDKError } from '@lousho/protocol';
import { isAbortError } from './abort.js';
import { isRetryableError } from './retryable.js';
import type { GenerateOptions, LLMProvider, StreamChunk } from '@lousho/protocol';

/** Options of `withFallback()`: which failures move on to the next provider. */
export interface FallbackOptions {
  /** Decides whether a failure moves on to the next provider (default: any failure but an abort). */
  shouldFallback?: (error: unknown, provider: LLMProvider) => boolean;
  /** Called when a provider failed and the next one is tried. */
  onFallback?: (info: { from: LLMProvider; to: LLMProvider; error: unknown }) => void;
}

/** Every provider of a withFallback() failed; `errors` holds each failure, in order. */
export class AllProvidersFailedError extends SDKError {
  declare readonly code: typeof ERROR_CODES.LOUSHO_ALL_PROVIDERS_FAILED;
  readonly errors: readonly unknown[];
  /** True when at least one failure was transient, so trying the whole chain later may work. */
  readonly retryable: boolean;

  constructor(providers: readonly LLMProvider[], errors: readonly unknown[]) {
    const parts = errors.map((error, i) => `${providers[i]?.name ?? `provider ${i + 1}`}: ${messageOf(error)}`);
    const hint = 'Each provider failed for the reason shown; fix the first one or add another fallback.';
    super(ERROR_CODES.LOUSHO_ALL_PROVIDERS_FAILED, `All ${errors.length} providers failed. ${parts.join(' | ')}`, {
      hint,
      cause: errors.at(-1),
    });
    this.name = 'AllProvidersFailedError';
    this.errors = errors;
    this.retryable = errors.some(isRetryableError);
  }
}

/**
 * A provider that tries `providers` in order. The first one gets the request's model; the others
 * use their own default model (a model id rarely means the same thing to another vendor). The
 * wrapper reports the first provider's name and default model.
 */
export function withFallback(providers: readonly LLMProvider[], options: FallbackOptions = {}): LLMProvider {
  if (providers.length === 0) {
    throw new SDKError(ERROR_CODES.LOUSHO_INVALID_CONFIG, 'withFallback() needs at least one provider.', {
      hint: 'Pass the providers in order of preference, e.g. withFallback([openai, anthropic]).',
    });
  }
  const list = [...providers];
  const first = list[0] as LLMProvider;
  const shouldFallback = options.shouldFallback ?? (() => true);
  return {
    name: first.name,
    ...(first.defaultModel !== undefined ? { defaultModel: first.defaultModel } : {}),
    stream: (request) => fallbackStream(list, request, shouldFallback, options.onFallback),
  };
}

async function* fallbackStream(
  providers: LLMProvider[],
  request: GenerateOptions,
  shouldFallback: (error: unknown, provider: LLMProvider) => boolean,
  onFallback: FallbackOptions['onFallback'],
): AsyncGenerator<StreamChunk> {
  const errors: unknown[] = [];
  for (let i = 0; i < providers.length; i++) {
    const provider = providers[i] as LLMProvider;
    const attempt = i === 0 ? request : withModel(request, provider.defaultModel);
    let streamed = false;
    try {
      for await (const chunk of provider.stream(attempt)) {
        streamed = true;
        yield chunk;
      }
      return;
    } catch (error) {
      if (streamed || request.signal?.aborted || isAbortError(error)) throw error;
      errors.push(error);
      const next = providers[i + 1];
      if (!next || !shouldFallback(error, provider)) break;
      onFallback?.({ from: provider, to: next, error });
    }
  }
  if (errors.length === 1) throw errors[0];
  throw new AllProvidersFailedError(providers, errors);
}

function withModel(request: GenerateOptions, model: string | undefined): GenerateOptions {
  if (model === undefined) return request;
  return { ...request, model };
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
