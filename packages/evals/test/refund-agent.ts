import { createAgent, defineTool, type LLMProvider } from '@lousho/core';
import { z } from 'zod';

/** The tools of the refund eval: a lookup, then a refund (the tools run for real on replay too). */
export const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Finds an order by id',
  input: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, total: 42, status: 'delivered' }),
});
export const refund = defineTool({
  name: 'refund',
  description: 'Refunds an order',
  input: z.object({ orderId: z.string(), amount: z.number() }),
  execute: async ({ orderId, amount }) => ({ refunded: amount, orderId }),
});

export function refundAgent(provider: LLMProvider) {
  return createAgent({ name: 'refunds', instructions: 'You handle refunds.', provider, tools: [lookupOrder, refund] });
}
