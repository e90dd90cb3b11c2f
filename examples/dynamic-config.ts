// lousho-api-overview.md › "Dynamic config": model, instructions and tools chosen per run.
// Run: npx tsx dynamic-config.ts (offline: a scripted model, no API key).
import { createAgent, defineTool } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const refund = defineTool({ name: 'refund', description: 'Refunds an order', input: z.object({ orderId: z.string() }), execute: async () => 'ok' });

// The snippet passes mockModel(['Hello!']) inline; named here so we can print what each run sent it.
const provider = mockModel(['Hello!', 'Hello again!']);

const agent = createAgent({
  provider,
  // A cheaper model for short inputs, tenant instructions, tools by role.
  model: ({ input }) => (typeof input === 'string' && input.length < 200 ? 'small-model' : 'large-model'),
  instructions: ({ metadata }) => `You are the support agent of ${String(metadata?.tenant ?? 'Acme')}.`,
  tools: ({ metadata }) => (metadata?.role === 'admin' ? [refund] : []),
});

await agent.send('Hi', { metadata: { tenant: 'Globex', role: 'admin' } });
report('admin of Globex');

// The same agent, another caller: no metadata, a long input.
await agent.send(`Please read this: ${'lorem ipsum '.repeat(20)}`);
report('anonymous, long input');

function report(who: string): void {
  const call = provider.lastCall!;
  console.log(`${who}: model=${call.model} tools=[${(call.tools ?? []).map((t) => t.name).join(',')}] instructions="${call.system}"`);
}
