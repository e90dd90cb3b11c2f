export { getModelInfo, registerModel, listModels, type ModelInfo } from './registry.js';
export { estimateTokens, setTokenEstimator, type TokenEstimator, type EstimateTokensOptions } from './tokens.js';
export { estimateCost, type CostTokens } from './cost.js';
export { ModelInfoError } from './errors.js';
