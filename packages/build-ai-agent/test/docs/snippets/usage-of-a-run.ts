// lousho-api-overview.md, "Usage and cost of a run", unchanged below the setup lines.
import { AgentBuilder } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
const agent = AgentBuilder.create('cities').setModel('gpt-4o-mini').build();
const provider = mockModel([{ text: 'Paris, Rome and Oslo.', usage: { promptTokens: 1200, completionTokens: 300 } }]);

import { AgentExecutor, formatUsage } from '@lousho/build-ai-agent';

const result = await AgentExecutor.execute({ agent, input: 'Compare 3 cities', provider });

result.usage.inputTokens; // all model calls of the run, delegated children included
result.usage.costUsd; // number, or undefined if any model used has no known price
result.usage.estimated; // true if some call reported no usage and was estimated
result.usage.byModel['gpt-4o-mini']; // { inputTokens, outputTokens, costUsd?, calls }
result.stepUsage?.[0]; // { step, model, usage, estimated, costUsd? } per model call
console.log(formatUsage(result.usage)); // 1,234 in / 567 out tokens · $0.0042 (2 model calls)

export { result };
