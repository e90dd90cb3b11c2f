// lousho-tools.md › "ToolRegistry": fill a registry yourself and run with AgentBuilder + AgentExecutor.
// Run: npx tsx tool-registry.ts (offline: a scripted model looks an order up).
import { AgentBuilder, AgentExecutor, ToolRegistry, currentDateTool, defineTool } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const lookupOrder = defineTool({
  name: 'lookup_order',
  description: 'Look up an order',
  input: z.object({ orderId: z.string() }),
  execute: async ({ orderId }) => ({ orderId, status: 'shipped' }),
});

const tools = new ToolRegistry();
tools.register(lookupOrder);
tools.register('current_date', currentDateTool);
console.log(`registered: ${tools.names().sort().join(', ')}`);

// Pass it as `toolRegistry`; the agent config's `tools` names the tools this agent may use.
const agent = AgentBuilder.create('orders').setInstructions('You track orders.').addTool('lookup_order').build();
const result = await AgentExecutor.execute({
  agent,
  input: 'Where is order 42?',
  toolRegistry: tools,
  provider: mockModel([{ toolCalls: [{ name: 'lookup_order', args: { orderId: '42' } }] }, 'Order 42 has shipped.']),
});
console.log(`lookup_order -> ${JSON.stringify(result.toolCalls[0]?.result)}; ${result.text}`);

// Registering the same name twice throws an error naming the conflict.
try {
  tools.register(lookupOrder);
} catch (error) {
  console.log(`duplicate: ${(error as { code?: string }).code}: ${(error as Error).message}`);
}
