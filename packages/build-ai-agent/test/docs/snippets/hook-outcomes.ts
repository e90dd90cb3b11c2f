// lousho-api-overview.md, "Hook outcomes", unchanged below the provider line.
import { mockModel } from '@lousho/build-ai-agent/testing';
const provider = mockModel([{ toolCalls: [{ name: 'shell', args: {} }] }, 'ok']);

import { createAgent, type AgentHook } from '@lousho/build-ai-agent';

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

const agent = createAgent({ provider, instructions: 'You research things.', hooks: [guard] });

export { agent, guard, provider };
