// lousho-api-overview.md › "Models, tokens and cost": token estimates, model info and prices.
// Run: npx tsx models-tokens-cost.ts (no model is called).
import { estimateTokens, estimateCost, getModelInfo, registerModel } from '@lousho/build-ai-agent';

// A custom or self-hosted model: add it (or override a built-in) before use.
registerModel({
  id: 'my-llama',
  provider: 'ollama',
  contextWindow: 32768,
  inputCostPerMTok: 0.2, // optional; omit for unknown or free
  outputCostPerMTok: 0.6,
});

const used = estimateTokens([{ role: 'user', content: 'Summarise this report' }], { model: 'my-llama' });
const info = getModelInfo('openai/gpt-4o-mini'); // exact id, `provider/id`, or a dated snapshot
const usd = estimateCost({ inputTokens: used, outputTokens: 500 }, 'my-llama'); // undefined if unpriced

console.log(`estimated tokens: ${used}`);
console.log(`openai/gpt-4o-mini is ${info?.id} from ${info?.provider}, context window ${info?.contextWindow}`);
console.log(`dated snapshot: ${getModelInfo('gpt-4o-mini-2024-07-18')?.id}`);
console.log(`cost on my-llama: $${usd?.toFixed(8)}`);
console.log(`cost on an unpriced model: ${estimateCost({ inputTokens: used, outputTokens: 500 }, 'nobody-knows-this-model')}`);
