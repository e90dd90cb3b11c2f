import { getModelInfo } from './registry.js';
import type { ModelInfo } from '@lousho/protocol';

/** The token counts a cost is computed from. */
export interface CostTokens {
  inputTokens: number;
  outputTokens: number;
  /** The part of `inputTokens` read from the provider's prompt cache. */
  cachedInputTokens?: number;
}

const TOKENS_PER_MTOK = 1_000_000;

/**
 * Estimates what a call cost in USD from the model registry's prices. Returns `undefined` (never
 * `0`) when the model is unknown, a price is missing, or a token count is not a usable number.
 * Cached input tokens use the cache-read price, or the input price when that is unknown.
 */
export function estimateCost(usage: CostTokens, model: string | ModelInfo | undefined): number | undefined {
  const info = typeof model === 'string' ? getModelInfo(model) : model;
  if (!info) return undefined;
  const { inputCostPerMTok: inputPrice, outputCostPerMTok: outputPrice } = info;
  if (!isNonNegative(inputPrice) || !isNonNegative(outputPrice)) return undefined;

  const inputTokens = usage?.inputTokens;
  const outputTokens = usage?.outputTokens;
  if (!isNonNegative(inputTokens) || !isNonNegative(outputTokens)) return undefined;
  const cachedRaw = usage.cachedInputTokens;
  if (cachedRaw !== undefined && !isNonNegative(cachedRaw)) return undefined;
  const cached = Math.min(cachedRaw ?? 0, inputTokens);
  const cachedPrice = isNonNegative(info.cachedInputCostPerMTok) ? info.cachedInputCostPerMTok : inputPrice;

  // Multiply before dividing: fewer rounding steps on small prices.
  const usdTimesMillion = (inputTokens - cached) * inputPrice + cached * cachedPrice + outputTokens * outputPrice;
  return usdTimesMillion / TOKENS_PER_MTOK;
}

function isNonNegative(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}
