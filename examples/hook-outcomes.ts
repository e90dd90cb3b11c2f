// lousho-api-overview.md › "Hook outcomes": a preToolCall hook denies a call or rewrites its input,
// a postToolCall hook trims a result. Run: npx tsx hook-outcomes.ts (offline: a scripted model).
import { createAgent, defineTool, type AgentHook } from '@lousho/build-ai-agent';
import { mockModel } from '@lousho/build-ai-agent/testing';
import { z } from 'zod';

const guard: AgentHook = {
  name: 'guard',
  preToolCall(ctx) {
    if (ctx.toolName === 'shell') return { deny: 'Use the workspace tools instead' };
    if (ctx.toolName === 'search') return { input: { ...ctx.args, limit: 10 } };
    return undefined; // continue unchanged
  },
  postToolCall(_ctx, result) {
    return typeof result.result === 'string' ? { result: result.result.slice(0, 2000) } : undefined;
  },
};

// What the snippet leaves to you: tools to guard and a model that calls them.
let shellRan = false;
const shell = defineTool({ name: 'shell', description: 'Run a command', input: z.object({ command: z.string() }), execute: async () => ((shellRan = true), 'done') });
let searchArgs: unknown;
const search = defineTool({
  name: 'search',
  description: 'Search the web',
  input: z.object({ q: z.string(), limit: z.number().optional() }),
  execute: async (args) => ((searchArgs = args), 'x'.repeat(5000)),
});
const provider = mockModel([{ toolCalls: [{ name: 'shell', args: { command: 'rm -rf /' } }, { name: 'search', args: { q: 'lousho' } }] }, 'Done.']);

const agent = createAgent({ provider, instructions: 'You research things.', hooks: [guard], tools: [shell, search] });

const result = await agent.send('Clean up, then search');
const [shellResult, searchResult] = result.messages.filter((m) => m.role === 'tool');
console.log(`shell ran: ${shellRan}; the model got: ${shellResult?.content}`);
console.log(`search ran with: ${JSON.stringify(searchArgs)}`);
console.log(`the model got ${String(searchResult?.content).length} of 5000 characters`);
