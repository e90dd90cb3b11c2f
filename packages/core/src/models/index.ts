export { getModelInfo, registerModel, listModels } from './registry.js';
export type { ModelInfo } from '@lousho/protocol';
export { estimateTokens, setTokenEstimator, type TokenEstimator, type EstimateTokensOptions } from './tokens.js';
export { estimateCost, type CostTokens } from './cost.js';
export { ModelInfoError } from './errors.js';
