// lousho-api-overview.md › "Finish reasons": why a run ended, and what maxSteps does.
// Run: npx tsx finish-reasons.ts (offline: the built-in mock provider).
import { createAgent, createMockProvider, defineTool } from '@lousho/build-ai-agent';
import { z } from 'zod';

// The snippet as documented: the mock answers at once, so the run ends with the model's own 'stop'.
const agent = createAgent({ prompt: 'You are helpful.', provider: createMockProvider(), maxSteps: 3 });
const result = await agent.send('Research this thoroughly');
if (result.finishReason === 'max-steps') console.warn(`Gave up after ${result.steps} steps`);
console.log(`answers at once: ${result.finishReason} after ${result.steps} step`);

// A model that never stops searching: the budget of 3 model calls runs out.
const search = defineTool({ name: 'search', description: 'Search the web', input: z.object({ q: z.string() }), execute: async ({ q }) => `nothing new about ${q}` });
const researcher = createAgent({
  prompt: 'You are helpful.',
  provider: createMockProvider({ responses: [{ toolCalls: [{ name: 'search', args: { q: 'more' } }] }] }),
  tools: [search],
  maxSteps: 3,
});
const stuck = await researcher.send('Research this thoroughly');
if (stuck.finishReason === 'max-steps') console.log(`keeps searching: Gave up after ${stuck.steps} steps (${stuck.toolCalls.length} searches)`);
