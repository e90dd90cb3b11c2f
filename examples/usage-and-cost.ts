// lousho-api-overview.md › "Usage and cost of a run": tokens and cost of every run, and a price for
// your own fine-tuned model. Run: npx tsx usage-and-cost.ts (offline: a scripted model reports usage).
import { AgentBuilder, AgentExecutor, formatUsage, registerModel } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';

// What the snippet leaves to you: an agent and a provider (two model calls, usage as a provider reports it).
const agent = AgentBuilder.create('cities').setModel('gpt-4o-mini').build();
const provider = mockModel([
  { text: 'Paris, Rome and Oslo.', usage: { promptTokens: 1200, completionTokens: 300 } },
  { text: 'Oslo is the coldest.', usage: { promptTokens: 34, completionTokens: 267 } },
]);

const result = await AgentExecutor.execute({ agent, input: 'Compare 3 cities', provider });

console.log(`input tokens: ${result.usage.inputTokens}`); // all model calls of the run, delegated children included
console.log(`cost known: ${typeof result.usage.costUsd === 'number'}`); // number, or undefined if any model used has no known price
console.log(`estimated: ${result.usage.estimated}`); // true if some call reported no usage and was estimated
console.log(`gpt-4o-mini calls: ${result.usage.byModel['gpt-4o-mini']?.calls}`); // { inputTokens, outputTokens, costUsd?, calls }
console.log(`first step model: ${result.stepUsage?.[0]?.model}`); // { step, model, usage, estimated, costUsd? } per model call
console.log(formatUsage(result.usage)); // 1,200 in / 300 out tokens · $0.0004 (1 model call)

// A second turn of a fine-tuned model: no price until you register one under the id you pass as the model.
const tuned = AgentBuilder.create('cities').setModel('ft:gpt-4o-mini:acme').build();
const before = await AgentExecutor.execute({ agent: tuned, input: 'Which is coldest?', provider });
console.log(`fine-tuned, unregistered: ${formatUsage(before.usage)}`);

registerModel({
  id: 'ft:gpt-4o-mini:acme',
  provider: 'openai',
  contextWindow: 128000,
  inputCostPerMTok: 0.3,
  outputCostPerMTok: 1.2,
});
provider.reset();
const after = await AgentExecutor.execute({ agent: tuned, input: 'Compare 3 cities', provider });
console.log(`fine-tuned, registered: ${formatUsage(after.usage)}`);
