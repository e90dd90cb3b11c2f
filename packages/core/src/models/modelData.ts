/**
 * Built-in model table: context windows and list prices.
 *
 * THIS IS A DATED SNAPSHOT, AND APPROXIMATE.
 *   Snapshot date: 2025-11 (list prices as the providers published them around then).
 *   Written into this repo on 2026-11-29 from the maintainers' knowledge of these pages, not fetched
 *   live, so treat every number as approximate:
 *   - OpenAI:     https://openai.com/api/pricing/ and https://platform.openai.com/docs/models
 *   - Anthropic:  https://www.anthropic.com/pricing and https://docs.anthropic.com/en/docs/about-claude/models
 *   - Google:     https://ai.google.dev/gemini-api/docs/pricing
 *   - DeepSeek:   https://api-docs.deepseek.com/quick_start/pricing
 *   - OpenRouter: https://openrouter.ai/models
 *   - Ollama:     https://ollama.com/library (local models: no price)
 *
 * Providers change prices, add tiers (long-context, batch, priority) and retire models. When you need
 * billing-grade numbers, override an entry with `registerModel(...)`; the latest registration wins
 * over this table.
 *
 * Conventions:
 * - Prices are USD per million tokens, standard tier, short prompts (e.g. Gemini 2.5 Pro charges
 *   more above 200k prompt tokens; the lower price is listed here).
 * - `cachedInputCostPerMTok` is the cache-read price. It is left out where unsure; cached tokens are
 *   then charged at the input price (an upper bound, never a guess that is too low).
 * - No price at all means unknown or free (local models, hosts whose prices vary). Cost is then
 *   `undefined`, never 0. The mock/demo models of the testing kit are deliberately absent for the
 *   same reason.
 */
import type { ModelInfo } from '@lousho/protocol';

const K200 = 200_000;
const GEMINI_WINDOW = 1_048_576;
const LLAMA_WINDOW = 131_072;

export const BUILT_IN_MODELS: readonly ModelInfo[] = [
  // OpenAI
  { id: 'gpt-5', provider: 'openai', contextWindow: 400_000, maxOutputTokens: 128_000, inputCostPerMTok: 1.25, cachedInputCostPerMTok: 0.125, outputCostPerMTok: 10 },
  { id: 'gpt-5-mini', provider: 'openai', contextWindow: 400_000, maxOutputTokens: 128_000, inputCostPerMTok: 0.25, cachedInputCostPerMTok: 0.025, outputCostPerMTok: 2 },
  { id: 'gpt-5-nano', provider: 'openai', contextWindow: 400_000, maxOutputTokens: 128_000, inputCostPerMTok: 0.05, cachedInputCostPerMTok: 0.005, outputCostPerMTok: 0.4 },
  { id: 'gpt-4.1', provider: 'openai', contextWindow: 1_047_576, maxOutputTokens: 32_768, inputCostPerMTok: 2, cachedInputCostPerMTok: 0.5, outputCostPerMTok: 8 },
  { id: 'gpt-4.1-mini', provider: 'openai', contextWindow: 1_047_576, maxOutputTokens: 32_768, inputCostPerMTok: 0.4, cachedInputCostPerMTok: 0.1, outputCostPerMTok: 1.6 },
  { id: 'gpt-4.1-nano', provider: 'openai', contextWindow: 1_047_576, maxOutputTokens: 32_768, inputCostPerMTok: 0.1, cachedInputCostPerMTok: 0.025, outputCostPerMTok: 0.4 },
  { id: 'gpt-4o', provider: 'openai', contextWindow: 128_000, maxOutputTokens: 16_384, inputCostPerMTok: 2.5, cachedInputCostPerMTok: 1.25, outputCostPerMTok: 10 },
  { id: 'gpt-4o-mini', provider: 'openai', contextWindow: 128_000, maxOutputTokens: 16_384, inputCostPerMTok: 0.15, cachedInputCostPerMTok: 0.075, outputCostPerMTok: 0.6 },
  { id: 'o3', provider: 'openai', contextWindow: K200, maxOutputTokens: 100_000, inputCostPerMTok: 2, cachedInputCostPerMTok: 0.5, outputCostPerMTok: 8 },
  { id: 'o4-mini', provider: 'openai', contextWindow: K200, maxOutputTokens: 100_000, inputCostPerMTok: 1.1, cachedInputCostPerMTok: 0.275, outputCostPerMTok: 4.4 },
  { id: 'o3-mini', provider: 'openai', contextWindow: K200, maxOutputTokens: 100_000, inputCostPerMTok: 1.1, cachedInputCostPerMTok: 0.55, outputCostPerMTok: 4.4 },
  { id: 'o1', provider: 'openai', contextWindow: K200, maxOutputTokens: 100_000, inputCostPerMTok: 15, cachedInputCostPerMTok: 7.5, outputCostPerMTok: 60 },
  { id: 'gpt-4-turbo', provider: 'openai', contextWindow: 128_000, maxOutputTokens: 4_096, inputCostPerMTok: 10, outputCostPerMTok: 30 },
  { id: 'gpt-3.5-turbo', provider: 'openai', contextWindow: 16_385, maxOutputTokens: 4_096, inputCostPerMTok: 0.5, outputCostPerMTok: 1.5 },

  // Anthropic (dated ids such as `claude-sonnet-4-20250514` resolve to these)
  { id: 'claude-opus-4-5', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 64_000, inputCostPerMTok: 5, cachedInputCostPerMTok: 0.5, outputCostPerMTok: 25 },
  { id: 'claude-opus-4-1', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 32_000, inputCostPerMTok: 15, cachedInputCostPerMTok: 1.5, outputCostPerMTok: 75 },
  { id: 'claude-opus-4', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 32_000, inputCostPerMTok: 15, cachedInputCostPerMTok: 1.5, outputCostPerMTok: 75 },
  { id: 'claude-sonnet-4-5', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 64_000, inputCostPerMTok: 3, cachedInputCostPerMTok: 0.3, outputCostPerMTok: 15 },
  { id: 'claude-sonnet-4', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 64_000, inputCostPerMTok: 3, cachedInputCostPerMTok: 0.3, outputCostPerMTok: 15 },
  { id: 'claude-3-7-sonnet', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 64_000, inputCostPerMTok: 3, cachedInputCostPerMTok: 0.3, outputCostPerMTok: 15 },
  { id: 'claude-3-5-sonnet', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 8_192, inputCostPerMTok: 3, cachedInputCostPerMTok: 0.3, outputCostPerMTok: 15 },
  { id: 'claude-haiku-4-5', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 64_000, inputCostPerMTok: 1, cachedInputCostPerMTok: 0.1, outputCostPerMTok: 5 },
  { id: 'claude-3-5-haiku', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 8_192, inputCostPerMTok: 0.8, cachedInputCostPerMTok: 0.08, outputCostPerMTok: 4 },
  { id: 'claude-3-haiku', provider: 'anthropic', contextWindow: K200, maxOutputTokens: 4_096, inputCostPerMTok: 0.25, cachedInputCostPerMTok: 0.03, outputCostPerMTok: 1.25 },

  // Google
  { id: 'gemini-2.5-pro', provider: 'google', contextWindow: GEMINI_WINDOW, maxOutputTokens: 65_536, inputCostPerMTok: 1.25, outputCostPerMTok: 10 },
  { id: 'gemini-2.5-flash', provider: 'google', contextWindow: GEMINI_WINDOW, maxOutputTokens: 65_536, inputCostPerMTok: 0.3, outputCostPerMTok: 2.5 },
  { id: 'gemini-2.5-flash-lite', provider: 'google', contextWindow: GEMINI_WINDOW, maxOutputTokens: 65_536, inputCostPerMTok: 0.1, outputCostPerMTok: 0.4 },
  { id: 'gemini-2.0-flash', provider: 'google', contextWindow: GEMINI_WINDOW, maxOutputTokens: 8_192, inputCostPerMTok: 0.1, outputCostPerMTok: 0.4 },

  // DeepSeek (also reachable as `deepseek/deepseek-chat` on OpenRouter)
  { id: 'deepseek-chat', provider: 'deepseek', contextWindow: 128_000, maxOutputTokens: 8_192, inputCostPerMTok: 0.28, cachedInputCostPerMTok: 0.028, outputCostPerMTok: 0.42 },
  { id: 'deepseek-reasoner', provider: 'deepseek', contextWindow: 128_000, maxOutputTokens: 64_000, inputCostPerMTok: 0.28, cachedInputCostPerMTok: 0.028, outputCostPerMTok: 0.42 },

  // OpenRouter-hosted open-weight models: the price depends on the upstream host, so none is listed.
  // (Vendor models on OpenRouter, e.g. `openai/gpt-4o-mini`, resolve to the vendor entries above.)
  { id: 'meta-llama/llama-3.1-8b-instruct', provider: 'openrouter', contextWindow: LLAMA_WINDOW },
  { id: 'meta-llama/llama-3.1-70b-instruct', provider: 'openrouter', contextWindow: LLAMA_WINDOW },
  { id: 'meta-llama/llama-3.3-70b-instruct', provider: 'openrouter', contextWindow: LLAMA_WINDOW },

  // Ollama (local: free, so no price; `llama3.1:8b` and `ollama/llama3.1` resolve to `llama3.1`).
  // The windows are what the weights support; Ollama's default `num_ctx` is much smaller.
  { id: 'llama3.1', provider: 'ollama', contextWindow: LLAMA_WINDOW },
  { id: 'llama3.2', provider: 'ollama', contextWindow: LLAMA_WINDOW },
  { id: 'llama3.3', provider: 'ollama', contextWindow: LLAMA_WINDOW },
  { id: 'qwen2.5', provider: 'ollama', contextWindow: 32_768 },
  { id: 'mistral', provider: 'ollama', contextWindow: 32_768 },
  { id: 'gemma3', provider: 'ollama', contextWindow: LLAMA_WINDOW },
];

/** Official alternative names that the suffix rules of `getModelInfo` cannot derive. */
export const BUILT_IN_ALIASES: Readonly<Record<string, string>> = {
  'claude-opus-4-0': 'claude-opus-4',
  'claude-sonnet-4-0': 'claude-sonnet-4',
};
