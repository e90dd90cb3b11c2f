// docs/evals.md's example, run by test/examples/evals-example.test.ts (and by `lousho eval` there). An app imports '@lousho/build-ai-agent'.
import { atLeast, budget, createAgent, defineEval, defineTool, exactMatch, includes, llmJudge, toolCallOrder } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Finds an order',
  input: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, total: 42 }),
});
const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order',
  input: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ refunded: true, orderId }),
});

const agent = createAgent({
  name: 'support',
  instructions: 'You handle refunds.',
  // In a real eval: a real model, or recordReplay({ cassette }) to replay a recorded one.
  provider: mockModel([
    { toolCalls: [{ name: 'lookup_order', args: { orderId: 'A-1' } }] },
    { toolCalls: [{ name: 'refund', args: { orderId: 'A-1' } }] },
    'Your refund for order A-1 is on its way.',
  ]),
  tools: [lookupOrder, refund],
});

export default defineEval({
  name: 'refunds',
  agent,
  cases: [{ input: 'Refund order A-1 please', expected: 'Your refund for order A-1 is on its way.' }],
  scorers: [
    exactMatch(),
    toolCallOrder(['lookup_order', 'refund']),
    budget({ maxSteps: 4, maxTokens: 5_000 }),
    llmJudge({ model: mockModel(['{"reason":"Confirms the refund and names the order.","score":0.9}']), rubric: 'Confirms the refund and names the order.' }),
  ],
  checks: [includes('A-1'), atLeast('llmJudge', 0.7)],
  threshold: 0.8,
});
