import { providerFromEnv, SDKError, type LLMProvider, type ProviderEnv } from '@lousho/build-ai-agent';
import { DEMO_MODEL_ID, DEMO_MODEL_NOTICE, DEMO_PROVIDER_NAME } from '@lousho/demo-agent';

/** Which model answers, as the UI shows it (`GET /api/info`). */
export interface ModelInfo {
  kind: 'demo' | 'real';
  provider: string;
  model: string;
  /** One line for the UI. */
  notice: string;
}

export interface ChosenModel {
  /** Undefined for the offline demo model (the demo agent's default). */
  provider?: LLMProvider;
  model?: string;
  info: ModelInfo;
  /** Said once on start when the choice may surprise (e.g. `LOUSHO_MODEL` set without its key). */
  warning?: string;
}

export const OFFLINE_MODEL_INFO: ModelInfo = {
  kind: 'demo',
  provider: DEMO_PROVIDER_NAME,
  model: DEMO_MODEL_ID,
  notice: DEMO_MODEL_NOTICE,
};

/**
 * A real model when `LOUSHO_MODEL` names one whose key is set (e.g. `openai/gpt-4o-mini` with
 * `OPENAI_API_KEY`), else the offline demo model. A malformed `LOUSHO_MODEL` throws, so a typo does
 * not silently fall back.
 */
export function chooseModel(env: ProviderEnv): ChosenModel {
  const configured = providerFromEnv(env);
  if (configured) {
    const { provider, model } = configured;
    return {
      provider,
      model,
      info: {
        kind: 'real',
        provider: provider.name,
        model,
        notice: `You are chatting with a real model: ${provider.name}/${model}. Its replies cost tokens; the tools are still the demo's made-up ones.`,
      },
    };
  }
  const named = env['LOUSHO_MODEL']?.trim();
  return {
    info: OFFLINE_MODEL_INFO,
    ...(named ? { warning: `LOUSHO_MODEL is "${named}" but its API key is not set: using the offline demo model.` } : {}),
  };
}

/**
 * What the server prints, in one line, when `LOUSHO_MODEL` cannot be used (a typo in the provider's
 * name, with its did-you-mean; a malformed string, with how to write it). No stack trace.
 */
export function modelChoiceFailure(error: unknown): string {
  if (!(error instanceof Error)) return `LOUSHO_MODEL: ${String(error)}`;
  // An unknown provider's message lists the known ones already; its hint is about registering one.
  const hint = SDKError.is(error) && error.code !== 'LOUSHO_UNKNOWN_PROVIDER' && error.hint ? ` ${error.hint}` : '';
  return `LOUSHO_MODEL: ${error.message}${hint}`;
}
